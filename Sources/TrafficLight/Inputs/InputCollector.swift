#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One thing found among the paths given on a command line.
public enum InputItem: Sendable, Equatable {
  /// A file to decode (it may still fail to decode: that is the decoder's error to give).
  case image(path: String)
  /// Something passed over, and why: a file in a folder that is not named like an image, or
  /// a folder that could not be listed.
  case skipped(path: String, reason: String)
  /// A folder named among the paths that gave no image (nor did its subfolders, when
  /// walked): the wrong folder, or frames in another format, would otherwise read as an
  /// empty run.
  case emptyFolder(path: String)
}

/// Turns command-line paths into the images to read, folders walked in natural order.
public enum InputCollector {
  /// File name extensions taken as images inside folders, compared without case.
  public static let imageExtensions: Set<String> = ["jpg", "jpeg", "png"]

  /// The inputs `paths` name, in order. A path that is not a folder is taken as an image
  /// whatever its name (a missing file then fails to decode, naming itself). A folder gives
  /// its image files in natural order, subfolders walked in the same order when
  /// `recursive`; other files in it are skipped with a reason, and a folder that gives no
  /// image at all is reported after its skipped files. Symbolic links are followed, but no
  /// folder is entered twice, so link loops end.
  public static func collect(_ paths: [String], recursive: Bool = true) -> [InputItem] {
    var items: [InputItem] = []
    var visited = Set<FileIdentity>()
    for path in paths {
      if let identity = FileIdentity(directoryAt: path) {
        let entered = !visited.contains(identity)
        let found = walk(path, identity: identity, recursive: recursive, visited: &visited, into: &items)
        // (A folder given twice, or by two names, is entered once: the later name is only noted.)
        if entered && found == 0 { items.append(.emptyFolder(path: path)) }
      } else {
        items.append(.image(path: path))
      }
    }
    return items
  }

  /// Whether a file name has one of the image extensions.
  public static func isImageName(_ name: String) -> Bool {
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
    return imageExtensions.contains(name[name.index(after: dot)...].lowercased())
  }

  /// Appends what `directory` holds to `items`; returns how many images that was.
  private static func walk(
    _ directory: String, identity: FileIdentity, recursive: Bool, visited: inout Set<FileIdentity>,
    into items: inout [InputItem]
  ) -> Int {
    guard visited.insert(identity).inserted else {
      items.append(.skipped(path: directory, reason: "folder already visited (symbolic link loop?)"))
      return 0
    }
    let names: [String]
    switch listDirectory(directory) {
    case .success(let list): names = list
    case .failure(let reason):
      items.append(.skipped(path: directory, reason: "cannot list folder: \(reason.message)"))
      return 0
    }
    let prefix = directory.hasSuffix("/") ? directory : directory + "/"
    var found = 0
    for name in NaturalOrder.sorted(names) {
      let path = prefix + name
      if name.hasPrefix(".") {
        items.append(.skipped(path: path, reason: "hidden"))
      } else if let child = FileIdentity(directoryAt: path) {
        if recursive {
          found += walk(path, identity: child, recursive: recursive, visited: &visited, into: &items)
        } else {
          items.append(.skipped(path: path, reason: "is a folder"))
        }
      } else if isImageName(name) {
        items.append(.image(path: path))
        found += 1
      } else {
        items.append(.skipped(path: path, reason: "not named like an image (.jpg, .jpeg, .png)"))
      }
    }
    return found
  }

  struct ListingError: Error { let message: String }

  private static let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!

  private static func listDirectory(_ path: String) -> Result<[String], ListingError> {
    guard let stream = opendir(path) else {
      return .failure(ListingError(message: String(cString: strerror(errno))))
    }
    defer { closedir(stream) }
    var names: [String] = []
    while let entry = readdir(stream) {
      // d_name is declared as 256 bytes, but a record may end sooner (d_reclen): read up to
      // the terminating zero only, in place, never copying the whole field.
      let name = String(
        cString: UnsafeRawPointer(entry).advanced(by: Self.nameOffset).assumingMemoryBound(to: CChar.self))
      if name != "." && name != ".." { names.append(name) }
    }
    return .success(names)
  }
}

/// A folder's device and inode: the same folder reached by two paths has one identity.
struct FileIdentity: Hashable {
  let device: UInt64
  let inode: UInt64

  /// The identity of the folder at `path` (following links); `nil` when it is not a folder.
  init?(directoryAt path: String) {
    var status = stat()
    guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return nil }
    device = UInt64(status.st_dev)
    inode = UInt64(status.st_ino)
  }
}
