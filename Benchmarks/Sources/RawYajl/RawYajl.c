#include "RawYajl.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <yajl/yajl_parse.h>

static int count_null(void *ctx) { ++*(long long *)ctx; return 1; }
static int count_bool(void *ctx, int value) { (void)value; ++*(long long *)ctx; return 1; }
static int count_number(void *ctx, const char *text, size_t length) { (void)text; (void)length; ++*(long long *)ctx; return 1; }
static int count_string(void *ctx, const unsigned char *text, size_t length) { (void)text; (void)length; ++*(long long *)ctx; return 1; }
static int count_event(void *ctx) { ++*(long long *)ctx; return 1; }

static const yajl_callbacks callbacks = {
    count_null, count_bool, NULL, NULL, count_number, count_string,
    count_event, count_string, count_event, count_event, count_event,
};

long long raw_yajl_count_events(const char *path, size_t chunk) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) return -1;
    unsigned char *buffer = malloc(chunk);
    long long events = 0;
    yajl_handle handle = yajl_alloc(&callbacks, NULL, &events);
    yajl_status status = yajl_status_ok;
    ssize_t count;
    while (status == yajl_status_ok && (count = read(fd, buffer, chunk)) > 0) {
        status = yajl_parse(handle, buffer, (size_t)count);
    }
    if (status == yajl_status_ok) status = yajl_complete_parse(handle);
    yajl_free(handle);
    free(buffer);
    close(fd);
    return status == yajl_status_ok ? events : -1;
}
