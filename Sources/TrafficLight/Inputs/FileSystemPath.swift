import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// File names are bytes, not text: a name need not be UTF-8. Paths are `String`s here all the
/// same, holding the bytes losslessly: valid UTF-8 as itself, every other byte `b` as the
/// private-use scalar U+10FF00 + b (and a name's own scalars from that range byte by byte, so
/// the mapping is one to one). `string(fromBytes:)` and `bytes(_:)` convert; the system calls
/// below take such a `String`, and work at any length: a path longer than the system's
/// PATH_MAX is opened a folder at a time (`openat`).
public enum FileSystemPath {
  /// The first scalar of the escapes.
  static let escapeBase: UInt32 = 0x10_FF00

  /// The path for `bytes` (no terminating zero).
  public static func string<C: Collection>(fromBytes bytes: C) -> String where C.Element == UInt8 {
    // Most names: valid UTF-8 with no scalar from the escapes' range (whose UTF-8 starts F4).
    if !bytes.contains(0xF4), let text = String(validating: bytes, as: UTF8.self) { return text }
    let bytes = Array(bytes)
    var scalars = String.UnicodeScalarView()
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var index = 0
    func escape(_ range: Range<Int>) {
      for i in range { scalars.append(Unicode.Scalar(escapeBase + UInt32(bytes[i]))!) }
    }
    loop: while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        let scalar = Unicode.UTF8.decode(encoded)
        if scalar.value >= escapeBase {
          escape(index..<(index + encoded.count))
        } else {
          scalars.append(scalar)
        }
        index += encoded.count
      case .error(let length):
        escape(index..<(index + length))
        index += length
      case .emptyInput:
        break loop
      }
    }
    return String(scalars)
  }

  /// The bytes `path` stands for (no terminating zero).
  public static func bytes(_ path: String) -> [UInt8] {
    // No escape (every escape's UTF-8 starts F4): the bytes are the UTF-8.
    if !path.utf8.contains(0xF4) { return Array(path.utf8) }
    var out: [UInt8] = []
    out.reserveCapacity(path.utf8.count)
    for scalar in path.unicodeScalars {
      if scalar.value >= escapeBase {
        out.append(UInt8(truncatingIfNeeded: scalar.value - escapeBase))
      } else {
        out.append(contentsOf: String(scalar).utf8)
      }
    }
    return out
  }

  /// Whether `path` holds bytes that are not UTF-8.
  public static func hasRawBytes(_ path: String) -> Bool {
    // Every escape's UTF-8 starts F4; most paths hold none.
    path.utf8.contains(0xF4) && path.unicodeScalars.contains { $0.value >= escapeBase }
  }

  /// `path` for people to read: each byte that is not UTF-8 as `\xNN`.
  public static func displayed(_ path: String) -> String {
    guard hasRawBytes(path) else { return path }
    var out = ""
    for scalar in path.unicodeScalars {
      if scalar.value >= escapeBase {
        let byte = String(scalar.value - escapeBase, radix: 16, uppercase: false)
        out += "\\x" + (byte.count == 1 ? "0" : "") + byte
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// `body` with the zero-terminated bytes of `path`.
  public static func withCString<R>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R
  {
    var bytes = Self.bytes(path)
    bytes.append(0)
    return try bytes.withUnsafeBufferPointer { buffer in
      try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
    }
  }

  // MARK: - System calls at any length

  /// `open(2)` of `path`; -1 with errno set on failure.
  public static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    at(path) { folder, name in openat(folder, name, flags, mode) } ?? -1
  }

  /// `stat(2)` (following links) or `lstat(2)` of `path`; false with errno set on failure.
  public static func status(_ path: String, _ status: inout stat, followingLinks: Bool = true) -> Bool {
    at(path) { folder, name in
      fstatat(folder, name, &status, followingLinks ? 0 : AT_SYMLINK_NOFOLLOW)
    } == 0
  }

  /// `unlink(2)` of `path`; false with errno set on failure.
  @discardableResult
  public static func unlink(_ path: String) -> Bool {
    at(path) { folder, name in unlinkat(folder, name, 0) } == 0
  }

  /// `rename(2)` of `path` to `destination` (both short of PATH_MAX); false with errno set.
  public static func rename(_ path: String, to destination: String) -> Bool {
    withCString(path) { from in withCString(destination) { to in Glibc.rename(from, to) } } == 0
  }

  /// Makes the folder at `path` and any missing folders above it (`mkdir -p`); false with
  /// errno set when one cannot be made or a non-folder is in the way.
  public static func makeFolders(_ path: String) -> Bool {
    let bytes = Self.bytes(path)
    var end = bytes.count
    while end > 1 && bytes[end - 1] == 47 { end -= 1 }
    var prefixes: [Int] = []
    for i in 1..<max(1, end) where bytes[i] == 47 && bytes[i - 1] != 47 { prefixes.append(i) }
    prefixes.append(end)
    for length in prefixes {
      let folder = string(fromBytes: bytes[..<length])
      var status = stat()
      if Self.status(folder, &status) {
        guard status.st_mode & S_IFMT == S_IFDIR else {
          errno = ENOTDIR
          return false
        }
        continue
      }
      guard at(folder, { parent, name in mkdirat(parent, name, 0o777) }) == 0 || errno == EEXIST else {
        return false
      }
    }
    return true
  }

  /// The names in the folder at `path` (without "." and ".."), or the system's reason.
  public static func names(inFolder path: String) -> Result<[String], SystemError> {
    entries(inFolder: path).map { $0.map(\.name) }
  }

  /// A name in a folder, and whether the folder's listing says it is a regular file (false:
  /// not one, or not said).
  public struct FolderEntry: Sendable {
    /// The entry's name, as `string(fromBytes:)` gives it.
    public let name: String
    /// The listing's type is a regular file: no link, no folder, no device.
    public let isRegularFile: Bool
  }

  /// The entries of the folder at `path` (not `.` and `..`), in the order the system lists them.
  public static func entries(inFolder path: String) -> Result<[FolderEntry], SystemError> {
    let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0, let stream = fdopendir(descriptor) else {
      let error = SystemError.current
      if descriptor >= 0 { close(descriptor) }
      return .failure(error)
    }
    defer { closedir(stream) }
    var entries: [FolderEntry] = []
    while let entry = readdir(stream) {
      // d_name is declared as 256 bytes, but a record may end sooner (d_reclen): read up to
      // the terminating zero only, in place.
      let name = UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: UInt8.self)
      let length = strlen(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self))
      let bytes = UnsafeBufferPointer(start: name, count: length)
      if bytes.elementsEqual([46]) || bytes.elementsEqual([46, 46]) { continue }
      entries.append(
        FolderEntry(name: string(fromBytes: bytes), isRegularFile: entry.pointee.d_type == DT_REG))
    }
    return .success(entries)
  }

  private static let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!

  /// A system call's failure: errno's text.
  public struct SystemError: Error, Sendable {
    /// The error number (errno).
    public let code: Int32
    /// The system's text for it.
    public var message: String { String(cString: strerror(code)) }
    static var current: SystemError { SystemError(code: errno) }
  }

  /// Runs `call` with a folder descriptor and a name within it that together reach `path`:
  /// `AT_FDCWD` and the whole path when it is short, else the path's folder opened a
  /// component at a time (each within the last). nil with errno set when a folder on the way
  /// cannot be opened.
  static func at(_ path: String, _ call: (Int32, UnsafePointer<CChar>) -> Int32) -> Int32? {
    var bytes = Self.bytes(path)
    if bytes.count < Int(PATH_MAX) - 1 {
      bytes.append(0)
      return bytes.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { call(AT_FDCWD, $0.baseAddress!) }
      }
    }
    // Long: walk the folders, from the deepest one the cache holds that leads there (a walk
    // or a run over a deep tree asks for neighbours, so this is a step or two, not the depth).
    guard let slash = bytes.lastIndex(of: 47) else { return nil }
    let last = Array(bytes[(slash + 1)...]) + [0]
    return FolderCache.shared.withFolder(Array(bytes[..<slash])) { folder in
      last.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { call(folder, $0.baseAddress!) }
      }
    }
  }
}

/// The last folder opened for a long path, kept open: the next long path in it, or below it,
/// starts there instead of at the root.
private final class FolderCache: @unchecked Sendable {
  static let shared = FolderCache()
  private let lock = NSLock()
  /// The cached folder's path, as bytes, and its descriptor.
  private var path: [UInt8] = []
  private var descriptor: Int32 = -1

  /// Runs `body` with a descriptor of the folder at `wanted` (bytes of a path, "" for the
  /// root of an absolute path); nil with errno set when a folder on the way cannot be opened.
  func withFolder(_ wanted: [UInt8], _ body: (Int32) -> Int32) -> Int32? {
    lock.lock()
    defer { lock.unlock() }
    var folder: Int32
    var rest: ArraySlice<UInt8>
    if descriptor >= 0, wanted.count >= path.count, wanted.starts(with: path),
      wanted.count == path.count || wanted[path.count] == 47
    {
      folder = dup(descriptor)
      rest = wanted[path.count...]
    } else {
      let absolute = wanted.isEmpty || wanted.first == 47
      folder = openat(AT_FDCWD, absolute ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      rest = wanted[...]
    }
    guard folder >= 0 else { return nil }
    for component in rest.split(separator: 47, omittingEmptySubsequences: true) {
      let next = (Array(component) + [0]).withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) {
          openat(folder, $0.baseAddress!, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
      }
      let failure = errno
      close(folder)
      guard next >= 0 else {
        errno = failure
        return nil
      }
      folder = next
    }
    defer { close(folder) }
    if wanted != path || descriptor < 0 {
      if descriptor >= 0 { close(descriptor) }
      descriptor = dup(folder)
      path = wanted
    }
    return body(folder)
  }
}
