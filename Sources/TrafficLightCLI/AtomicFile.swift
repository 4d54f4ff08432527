import Synchronization
import TrafficLight

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file written under a temporary name beside its destination and renamed into place only
/// when complete: readers never see half a file, and an existing file is replaced only by a
/// finished one. If the process is interrupted (SIGINT, SIGTERM, SIGHUP), the temporary file
/// is removed. A destination that is not a regular file (a device, a FIFO) is written in
/// place.
final class AtomicFile {
  let path: String
  /// The file written: `path`, or where the symbolic links at `path` lead (the links stay).
  let target: String
  let temporaryPath: String
  private(set) var descriptor: Int32
  /// Whether the destination is written directly (it is not a regular file).
  private let inPlace: Bool

  /// The non-regular destinations written in place.
  static let streams: Set<String> = ["/dev/stdout", "/dev/stderr", "/dev/null", "/dev/fd/1", "/dev/fd/2"]

  /// Creates the temporary file. With `followingLinks` false, a symbolic link at `path` is
  /// replaced by the file, never written through (masks: a link there is no place of the
  /// user's to write to).
  ///
  /// - Throws: `CommandError` naming `path` when the folder cannot take the file.
  init(path: String, followingLinks: Bool = true) throws(CommandError) {
    self.path = path
    // Standard output and the like are links to what the process holds: written as named.
    let path = Self.streams.contains(path) || !followingLinks ? path : Self.followingLinks(path)
    target = path
    // A destination that exists and is not a regular file is written in place (renaming
    // over it would replace the device), but only standard output, standard error and
    // /dev/null: a FIFO with no reader would block the run forever, and another device is
    // no place for results. Opened without blocking, in any case.
    var status = stat()
    if FileSystemPath.status(path, &status) && status.st_mode & S_IFMT != S_IFREG {
      guard status.st_mode & S_IFMT != S_IFDIR else {
        throw CommandError.io("cannot write \(self.path): is a folder")
      }
      guard Self.streams.contains(path) else {
        throw CommandError.io(
          "cannot write \(self.path): not a regular file (a FIFO or device; use a file, or /dev/stdout)")
      }
      temporaryPath = path
      descriptor = FileSystemPath.open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
      if descriptor >= 0 {
        // Writes block as usual from here: only the open must not wait.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
      }
      guard descriptor >= 0 else {
        throw CommandError.io("cannot write \(self.path): \(String(cString: strerror(errno)))")
      }
      inPlace = true
      return
    }
    inPlace = false
    // Beside the destination under a short name of its own (a destination name near the
    // 255-byte limit still gets one), which names this host and process so that a later run
    // can tell the leftovers of a killed one (`removeLeftovers`).
    let folder = path.lastIndex(of: "/").map { String(path[...$0].dropLast()) } ?? ""
    AtomicFile.removeLeftovers(in: path.contains("/") ? (folder.isEmpty ? "/" : folder) : ".")
    temporaryPath =
      (path.contains("/") ? folder + "/" : "") + AtomicFile.prefix
      + "\(AtomicFile.host)-\(getpid())-\(AtomicFile.counter.next())"
    // Counted as being created until it is registered and checked: a signal's handler waits
    // for that, so no file is made that its sweep misses. Registered before it exists, so no
    // signal can fall between creating the file and registering it.
    guard InterruptCleanup.beginCreating() else {
      throw CommandError.io("cannot write \(self.path): interrupted")
    }
    defer { InterruptCleanup.endCreating() }
    InterruptCleanup.register(temporaryPath)
    descriptor = FileSystemPath.open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      let reason = String(cString: strerror(errno))
      InterruptCleanup.unregister(temporaryPath)
      throw CommandError.io("cannot write \(self.path): \(reason)")
    }
    // A signal's sweep may have passed before the file existed: it goes now, the process
    // is ending.
    if InterruptCleanup.isStopping {
      FileSystemPath.unlink(temporaryPath)
      throw CommandError.io("cannot write \(self.path): interrupted")
    }
    // A file replaced keeps its permissions.
    if FileSystemPath.status(path, &status) { _ = fchmod(descriptor, status.st_mode & 0o7777) }
  }

  /// Where the symbolic links at `path` lead, link after link (up to 40, as the kernel
  /// allows), the last one possibly not existing yet; `path` itself when it is no link.
  static func followingLinks(_ path: String) -> String {
    var current = path
    for _ in 0..<40 {
      var status = stat()
      guard FileSystemPath.status(current, &status, followingLinks: false), status.st_mode & S_IFMT == S_IFLNK
      else { return current }
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let length = FileSystemPath.withCString(current) { readlink($0, &buffer, Int(PATH_MAX)) }
      guard length > 0 else { return current }
      let destination = FileSystemPath.string(fromBytes: buffer[..<length].map { UInt8(bitPattern: $0) })
      if destination.hasPrefix("/") {
        current = destination
      } else {
        let folder = current.lastIndex(of: "/").map { String(current[...$0]) } ?? ""
        current = folder + destination
      }
    }
    return current
  }

  /// Writes all of `bytes`; returns false on failure (errno says why).
  func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return false }
      offset += written
    }
    return true
  }

  /// Moves the finished file into place. Returns an error message on failure.
  func commit() -> String? {
    if inPlace {
      let failed = close(descriptor) != 0
      descriptor = -1
      return failed ? "cannot write \(path): \(String(cString: strerror(errno)))" : nil
    }
    defer { InterruptCleanup.unregister(temporaryPath) }
    guard fsync(descriptor) == 0 || errno == EINVAL, close(descriptor) == 0 else {
      let reason = String(cString: strerror(errno))
      FileSystemPath.unlink(temporaryPath)
      return "cannot write \(path): \(reason)"
    }
    descriptor = -1
    guard FileSystemPath.rename(temporaryPath, to: target) else {
      let reason = String(cString: strerror(errno))
      FileSystemPath.unlink(temporaryPath)
      return "cannot write \(path): \(reason)"
    }
    return nil
  }

  /// Drops the temporary file; the destination is untouched.
  func discard() {
    if descriptor >= 0 { close(descriptor) }
    descriptor = -1
    guard !inPlace else { return }
    FileSystemPath.unlink(temporaryPath)
    InterruptCleanup.unregister(temporaryPath)
  }

  /// Writes `bytes` to `path` atomically in one go (through the links at `path` when
  /// `followingLinks`, else replacing a link there). Returns an error message on failure.
  static func write(_ bytes: [UInt8], to path: String, followingLinks: Bool = true) -> String? {
    let file: AtomicFile
    do {
      file = try AtomicFile(path: path, followingLinks: followingLinks)
    } catch {
      return error.message
    }
    guard bytes.withUnsafeBytes({ file.write($0) }) else {
      let reason = String(cString: strerror(errno))
      file.discard()
      return "cannot write \(path): \(reason)"
    }
    return file.commit()
  }

  private static let counter = Counter()

  /// How every temporary file's name begins.
  static let prefix = ".traffic-light-partial-"

  /// This host's name, with no '-' (the field separator) and no '/'.
  static let host: String = {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
    let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let safe = name.map { $0 == "-" || $0 == "/" ? "_" : $0 }
    return safe.isEmpty ? "localhost" : String(safe)
  }()

  nonisolated(unsafe) private static var swept = Set<String>()
  nonisolated(unsafe) private static var sweepLock = pthread_mutex_t()

  /// Removes, once per folder and run, the temporary files of runs on this host whose
  /// process is gone (killed before it could remove them). Files of other hosts (a shared
  /// folder) and of live processes are left alone.
  static func removeLeftovers(in folder: String) {
    pthread_mutex_lock(&sweepLock)
    defer { pthread_mutex_unlock(&sweepLock) }
    let key = folder
    guard !swept.contains(key), case .success(let names) = FileSystemPath.names(inFolder: key) else { return }
    swept.insert(key)
    let own = prefix + host + "-"
    for name in names {
      guard name.hasPrefix(own) else { continue }
      let fields = name.dropFirst(own.count).split(separator: "-")
      guard fields.count == 2, let pid = Int32(fields[0]), pid > 0, pid != getpid() else { continue }
      if kill(pid, 0) == -1 && errno == ESRCH {
        FileSystemPath.unlink((key.hasSuffix("/") ? key : key + "/") + name)
      }
    }
  }

  private final class Counter: @unchecked Sendable {
    private var value = 0
    private var lock = pthread_mutex_t()
    init() { pthread_mutex_init(&lock, nil) }
    func next() -> Int {
      pthread_mutex_lock(&lock)
      defer { pthread_mutex_unlock(&lock) }
      value += 1
      return value
    }
  }
}

/// Temporary files to remove if a signal ends the process. The handler only uses lock-free
/// atomics, reads a fixed table of C strings and calls `unlink`, `nanosleep` and `_exit`,
/// which are safe in a signal handler. Other threads run on while it does, so it first sets a
/// flag that stops new files (`isStopping`), then waits (half a second at most) until no file
/// is between being started and being registered and checked (`beginCreating`), then sweeps.
enum InterruptCleanup {
  /// Set by the handler before it sweeps.
  private static let stopping = Atomic<Bool>(false)
  /// How many files are being created now.
  private static let creating = Atomic<Int>(0)

  /// Counts a file as being created; false (and not counted) when a signal is ending the run.
  static func beginCreating() -> Bool {
    creating.wrappingAdd(1, ordering: .sequentiallyConsistent)
    guard !stopping.load(ordering: .sequentiallyConsistent) else {
      creating.wrappingSubtract(1, ordering: .sequentiallyConsistent)
      return false
    }
    return true
  }

  /// Ends what `beginCreating` started.
  static func endCreating() {
    creating.wrappingSubtract(1, ordering: .sequentiallyConsistent)
  }

  /// Whether a signal is ending the process.
  static var isStopping: Bool { stopping.load(ordering: .sequentiallyConsistent) }

  /// Room for every file open at once: one per worker (`--jobs` is at most 1024), the output
  /// and the timeline, and more.
  private static let capacity = 4096
  nonisolated(unsafe) private static let table = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(
    capacity: capacity)
  nonisolated(unsafe) private static var lock = pthread_mutex_t()
  nonisolated(unsafe) private static var installed = false

  static func register(_ path: String) {
    pthread_mutex_lock(&lock)
    defer { pthread_mutex_unlock(&lock) }
    if !installed {
      installed = true
      table.initialize(repeating: nil, count: capacity)
      // A parent may hand these signals down blocked; they must reach the handler.
      var signals = sigset_t()
      sigemptyset(&signals)
      for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, signal) }
      pthread_sigmask(SIG_UNBLOCK, &signals, nil)
      for signal in [SIGINT, SIGTERM, SIGHUP] {
        Glibc.signal(signal) { number in
          InterruptCleanup.stopping.store(true, ordering: .sequentiallyConsistent)
          // (The signal may have landed on a thread that is creating a file: then the wait
          // runs out, and the sweep finds that file if it exists.)
          for _ in 0..<50 where InterruptCleanup.creating.load(ordering: .sequentiallyConsistent) > 0 {
            var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
            nanosleep(&pause, nil)
          }
          for i in 0..<InterruptCleanup.capacity {
            if let path = InterruptCleanup.table[i] { unlink(path) }
          }
          _exit(128 + number)
        }
      }
    }
    for i in 0..<capacity where table[i] == nil {
      table[i] = FileSystemPath.withCString(path) { strdup($0) }
      return
    }
  }

  static func unregister(_ path: String) {
    pthread_mutex_lock(&lock)
    defer { pthread_mutex_unlock(&lock) }
    guard installed else { return }
    for i in 0..<capacity {
      if let entry = table[i],
        FileSystemPath.string(
          fromBytes: UnsafeBufferPointer(
            start: UnsafeRawPointer(entry).assumingMemoryBound(to: UInt8.self), count: strlen(entry))) == path
      {
        table[i] = nil
        free(entry)
      }
    }
  }
}
