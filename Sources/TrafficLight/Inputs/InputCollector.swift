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
        // A folder given twice, by two names, or inside a folder given before, is read once.
        guard !visited.contains(identity) else {
          items.append(
            .skipped(path: path, reason: "named twice, or inside a folder named before: read once"))
          continue
        }
        let found = walk(path, identity: identity, recursive: recursive, visited: &visited, into: &items)
        if found == 0 { items.append(.emptyFolder(path: path)) }
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

  /// Appends what `directory` holds to `items`; returns how many images that was. A loop, not
  /// recursion, with a frame per open folder on a stack of its own: a tree thousands of
  /// folders deep is walked like any other (and paths past PATH_MAX are opened a folder at a
  /// time, see `FileSystemPath`).
  private static func walk(
    _ directory: String, identity: FileIdentity, recursive: Bool, visited: inout Set<FileIdentity>,
    into items: inout [InputItem]
  ) -> Int {
    // Each frame: a folder's path with its separator, and its entries still to visit.
    var stack: [(prefix: String, entries: ArraySlice<FileSystemPath.FolderEntry>)] = []
    func enter(_ folder: String, _ identity: FileIdentity) {
      guard visited.insert(identity).inserted else {
        items.append(
          .skipped(path: folder, reason: "folder already read (named earlier, or a symbolic link loop)"))
        return
      }
      switch listDirectory(folder) {
      case .success(let entries):
        stack.append(
          (folder.hasSuffix("/") ? folder : folder + "/", NaturalOrder.sorted(entries, by: \.name)[...]))
      case .failure(let reason):
        items.append(.skipped(path: folder, reason: "cannot list folder: \(reason.message)"))
      }
    }
    enter(directory, identity)
    var found = 0
    while let top = stack.indices.last {
      guard let entry = stack[top].entries.popFirst() else {
        stack.removeLast()
        continue
      }
      let name = entry.name
      let path = stack[top].prefix + name
      if name.hasPrefix(".") {
        items.append(.skipped(path: path, reason: "hidden"))
      } else if !entry.isRegularFile, let child = FileIdentity(directoryAt: path) {
        // A regular file by the listing is no folder; a link or an unsaid type is looked at.
        if recursive {
          enter(path, child)
        } else {
          items.append(.skipped(path: path, reason: "is a folder"))
        }
      } else if name.lowercased().hasSuffix(".mask.png") || name.lowercased().hasSuffix(".mask.jpg") {
        // A mask this tool wrote (`--mask`) is a picture of a reading, not a frame.
        items.append(.skipped(path: path, reason: "a mask (named *.mask.png or .jpg), not read as an image"))
      } else if isImageName(name) {
        items.append(.image(path: path))
        found += 1
      } else {
        items.append(.skipped(path: path, reason: "not named like an image (.jpg, .jpeg, .png)"))
      }
    }
    return found
  }

  private static func listDirectory(_ path: String) -> Result<
    [FileSystemPath.FolderEntry], FileSystemPath.SystemError
  > {
    FileSystemPath.entries(inFolder: path)
  }
}

/// A folder's device and inode: the same folder reached by two paths has one identity.
struct FileIdentity: Hashable {
  let device: UInt64
  let inode: UInt64

  /// The identity of the folder at `path` (following links); `nil` when it is not a folder.
  init?(directoryAt path: String) {
    var status = stat()
    guard FileSystemPath.status(path, &status), status.st_mode & S_IFMT == S_IFDIR else { return nil }
    device = UInt64(status.st_dev)
    inode = UInt64(status.st_ino)
  }
}
