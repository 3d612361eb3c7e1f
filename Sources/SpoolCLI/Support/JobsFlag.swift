import ArgumentParser
import Spool

/// `--jobs N`, for the commands that decode the elements of one array or the members of one
/// object (`items`, `members`, `count`, `bands`, also with `--skip-invalid`): N threads
/// decode them at once (``Parallelism``), the output is the same.
struct JobsFlag: ParsableArguments {
    /// The most threads `--jobs` asks for.
    static let maximum = 64

    @Option(
        help: ArgumentHelp(
            "Threads that decode the elements (or members): 1 (the default) reads serially; 0 or auto, one per core (at most \(JobsFlag.maximum); on two cores or fewer, serially).",
            discussion: """
                The same output, in the same order. Threads are used for a regular file, without \
                --allow-comments or [*] in PATH; with --ndjson, only by items for the values \
                themselves (PATH .), not by members. Otherwise the input is read serially.
                """,
            valueName: "n"))
    var jobs: Jobs = Jobs(count: 1)

    /// How many threads decode the elements.
    var parallelism: Parallelism {
        switch jobs.count {
        case 0: return .automatic
        case 1: return .serial
        case let count: return .workers(count)
        }
    }

    func validate() throws {
        guard (0...Self.maximum).contains(jobs.count) else {
            throw ValidationError("--jobs must be auto or from 0 to \(Self.maximum)")
        }
    }

    /// Whether the elements at `path` of `input`, read with `options`, are decoded on several
    /// threads: what ``JSONStream/elements(of:at:onError:parallelism:)`` says, for a command
    /// that must know before it asks (`count`, which then reads the input again when PATH
    /// holds an object). Not with several top-level values: a count of them names them values
    /// in its errors, where elements decoded in parallel are elements.
    func decodesInParallel(_ input: InputFile, at path: JSONKeyPath, options: JSONParsingOptions, totalBytes: Int?) -> Bool {
        parallelism.workerCount > 1 && input.path != nil && totalBytes != nil && !options.allowsComments
            && !options.allowsMultipleValues && !path.components.contains(.wildcard)
    }
}

/// The value of `--jobs`: a number of threads, 0 (or `auto`) for one per core.
struct Jobs: ExpressibleByArgument {
    /// The number of threads; 0 for one per core.
    let count: Int

    init(count: Int) {
        self.count = count
    }

    init?(argument: String) {
        if argument == "auto" {
            count = 0
            return
        }
        guard let count = Int(argument) else { return nil }
        self.count = count
    }

    var defaultValueDescription: String { count == 0 ? "auto" : "\(count)" }
}
