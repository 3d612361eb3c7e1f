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

// Generating JSON with yajl_gen, for the JSONWriter decision (SpoolBench gen-yajl-c, gen-yajl).

#include <stdio.h>
#include <string.h>
#include <yajl/yajl_gen.h>

typedef struct {
    int fd;
    size_t length;
    unsigned char buffer[65536];
} raw_sink;

static void raw_write_all(int fd, const unsigned char *bytes, size_t length) {
    size_t offset = 0;
    while (offset < length) {
        ssize_t written = write(fd, bytes + offset, length - offset);
        if (written <= 0) return;
        offset += (size_t)written;
    }
}

static void raw_sink_flush(raw_sink *sink) {
    raw_write_all(sink->fd, sink->buffer, sink->length);
    sink->length = 0;
}

static void raw_sink_print(void *ctx, const char *text, size_t length) {
    raw_sink *sink = ctx;
    if (sink->length + length > sizeof sink->buffer) raw_sink_flush(sink);
    if (length > sizeof sink->buffer) {
        raw_write_all(sink->fd, (const unsigned char *)text, length);
        return;
    }
    memcpy(sink->buffer + sink->length, text, length);
    sink->length += length;
}

static raw_sink *last_sink;

yajl_gen raw_gen_open_tracked(int fd) {
    raw_sink *sink = malloc(sizeof *sink);
    if (!sink) return NULL;
    sink->fd = fd;
    sink->length = 0;
    last_sink = sink;
    yajl_gen gen = yajl_gen_alloc(NULL);
    yajl_gen_config(gen, yajl_gen_print_callback, raw_sink_print, sink);
    yajl_gen_config(gen, yajl_gen_escape_solidus, 1);
    yajl_gen_config(gen, yajl_gen_validate_utf8, 0);
    return gen;
}

void raw_gen_finish_tracked(yajl_gen gen) {
    raw_sink_flush(last_sink);
    free(last_sink);
    last_sink = NULL;
    yajl_gen_free(gen);
}

#define GEN_KEY(gen, text) yajl_gen_string(gen, (const unsigned char *)(text), sizeof(text) - 1)

long long raw_yajl_gen_objects(const char *path, long long count) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return -1;
    yajl_gen gen = raw_gen_open_tracked(fd);
    if (!gen) {
        close(fd);
        return -1;
    }
    char text[128];
    yajl_gen_array_open(gen);
    for (long long i = 0; i < count; i++) {
        yajl_gen_map_open(gen);
        GEN_KEY(gen, "id");
        yajl_gen_integer(gen, i);
        GEN_KEY(gen, "name");
        int length = snprintf(text, sizeof text, "Band %lld", i % 1000);
        yajl_gen_string(gen, (const unsigned char *)text, (size_t)length);
        GEN_KEY(gen, "active");
        yajl_gen_bool(gen, i % 3 == 0);
        GEN_KEY(gen, "rating");
        length = snprintf(text, sizeof text, "%g", (double)(i % 500) / 100.0);
        yajl_gen_number(gen, text, (size_t)length);
        GEN_KEY(gen, "tags");
        yajl_gen_array_open(gen);
        GEN_KEY(gen, "indie");
        GEN_KEY(gen, "rock/pop");
        yajl_gen_array_close(gen);
        GEN_KEY(gen, "homepage");
        length = snprintf(text, sizeof text, "https://www.example.com/band?id=%lld", i);
        yajl_gen_string(gen, (const unsigned char *)text, (size_t)length);
        yajl_gen_map_close(gen);
    }
    yajl_gen_array_close(gen);
    raw_gen_finish_tracked(gen);
    close(fd);
    return count;
}
