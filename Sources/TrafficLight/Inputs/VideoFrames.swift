import Foundation

/// Why a video gave no frames, or stopped giving them.
public enum VideoError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
  /// No ffmpeg to decode it: `ffmpeg` was not found on `PATH`, or the one named is not there.
  case ffmpegMissing(path: String, tried: String)
  /// ffmpeg or ffprobe could not read it; `message` is the last of what it said.
  case unreadable(path: String, message: String)
  /// ffmpeg's output was not the PNG stream asked for, or a frame was larger than allowed.
  case badStream(path: String, reason: String)

  /// The video's path and what went wrong, with what to do for a missing ffmpeg.
  public var description: String {
    switch self {
    case .ffmpegMissing(let path, let tried):
      "\(path): reading a video needs ffmpeg, and \(tried) is not there "
        + "(install it, e.g. apt install ffmpeg, or name one with TRAFFIC_LIGHT_FFMPEG)"
    case .unreadable(let path, let message): "\(path): ffmpeg cannot read it as a video: \(message)"
    case .badStream(let path, let reason): "\(path): ffmpeg's frames: \(reason)"
    }
  }

  /// `description`, for `localizedDescription`.
  public var errorDescription: String? { description }
}

/// The frames of a video file (anything ffmpeg reads), decoded by an ffmpeg child process and
/// read from its standard output as a stream of PNG images, one a frame, at a constant rate:
/// no temporary file. Frame `i` shows the video at `Double(i) / fps` seconds.
///
/// `frame(_:)` may be called from several threads, each index once, in any order: frames are
/// read from the pipe in order and held until asked for (at most as many as callers ahead).
public final class VideoFrames: @unchecked Sendable {
  /// The video, as given.
  public let path: String
  /// Frames per second of the frames given: the rate asked for, else the video's own
  /// (its average rate; ffmpeg's `fps` filter makes the frames evenly spaced either way).
  public let fps: Double

  private let process: Process
  private let output: FileHandle
  private let maxFrameBytes: Int
  private let lock = NSCondition()
  private var reading = false
  private var nextIndex = 0
  private var held: [Int: [UInt8]] = [:]
  private var ended = false
  private var failure: VideoError? = nil
  private var buffer: [UInt8] = []
  private var bufferStart = 0
  private let errors = ErrorTail()

  /// The ffmpeg that `VideoFrames` runs: `TRAFFIC_LIGHT_FFMPEG` when set, else the first
  /// `ffmpeg` on `PATH`; nil when there is none.
  public static func ffmpeg(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
    if let named = environment["TRAFFIC_LIGHT_FFMPEG"], !named.isEmpty {
      return FileManager.default.isExecutableFile(atPath: named) ? named : nil
    }
    for folder in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
      let candidate = String(folder) + "/ffmpeg"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// Starts decoding the video at `path`, at `fps` frames per second (nil: the video's own
  /// rate, asked of ffprobe beside ffmpeg). A frame's PNG may be at most `maxFrameBytes`.
  ///
  /// - Throws: `VideoError` when there is no ffmpeg, or ffprobe cannot read the file.
  public init(path: String, fps: Double? = nil, maxFrameBytes: Int = 256 << 20) throws(VideoError) {
    self.path = path
    self.maxFrameBytes = maxFrameBytes
    let environment = ProcessInfo.processInfo.environment
    guard let ffmpeg = Self.ffmpeg(environment: environment) else {
      throw .ffmpegMissing(path: path, tried: environment["TRAFFIC_LIGHT_FFMPEG"] ?? "ffmpeg (on PATH)")
    }
    let rate: Double
    if let fps {
      rate = fps
    } else {
      let ffprobe = (ffmpeg as NSString).deletingLastPathComponent + "/ffprobe"
      rate = try Self.videoRate(of: path, ffprobe: ffprobe)
    }
    self.fps = rate
    process = Process()
    process.executableURL = URL(fileURLWithPath: ffmpeg)
    // A path that begins with '-' would be read as an option: "file:" keeps it a file.
    let input = path.hasPrefix("-") ? "file:" + path : path
    process.arguments = [
      "-nostdin", "-hide_banner", "-loglevel", "error", "-i", input, "-map", "0:v:0", "-an", "-sn", "-dn",
      "-vf", "fps=\(rate)", "-f", "image2pipe", "-c:v", "png", "-compression_level", "1", "-pix_fmt", "rgb24",
      "-",
    ]
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    output = out.fileHandleForReading
    do {
      try process.run()
    } catch {
      throw .ffmpegMissing(path: path, tried: ffmpeg)
    }
    errors.drain(err.fileHandleForReading)
  }

  deinit { _ = close() }

  /// The PNG file of frame `index` (from 0); nil past the last frame, or once the stream
  /// failed (`close()` says why).
  public func frame(_ index: Int) -> [UInt8]? {
    lock.lock()
    defer { lock.unlock() }
    while true {
      if let frame = held.removeValue(forKey: index) { return frame }
      if ended || index < nextIndex { return nil }
      if reading {
        lock.wait()
        continue
      }
      reading = true
      lock.unlock()
      let next = readPNG()
      lock.lock()
      reading = false
      switch next {
      case .success(let bytes?):
        held[nextIndex] = bytes
        nextIndex += 1
      case .success(nil): ended = true
      case .failure(let error):
        failure = error
        ended = true
      }
      lock.broadcast()
    }
  }

  /// Ends the decoding (stopping ffmpeg if frames are left) and says what went wrong: the
  /// stream's failure, or ffmpeg's when it exited with an error; nil when all was well.
  public func close() -> VideoError? {
    lock.lock()
    let stoppedEarly = !ended
    ended = true
    lock.unlock()
    if process.isRunning && stoppedEarly { process.terminate() }
    try? output.close()
    process.waitUntilExit()
    errors.wait()
    lock.lock()
    defer { lock.unlock() }
    if let failure { return failure }
    if !stoppedEarly && process.terminationReason == .exit && process.terminationStatus != 0 {
      return .unreadable(
        path: path, message: errors.text.isEmpty ? "exit \(process.terminationStatus)" : errors.text)
    }
    return nil
  }

  /// The video's average frame rate, from ffprobe.
  private static func videoRate(of path: String, ffprobe: String) throws(VideoError) -> Double {
    guard FileManager.default.isExecutableFile(atPath: ffprobe) else {
      throw .ffmpegMissing(path: path, tried: ffprobe)
    }
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: ffprobe)
    probe.arguments = [
      "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=avg_frame_rate,r_frame_rate",
      "-of", "default=noprint_wrappers=1", path.hasPrefix("-") ? "file:" + path : path,
    ]
    let out = Pipe()
    let err = Pipe()
    probe.standardOutput = out
    probe.standardError = err
    probe.standardInput = FileHandle.nullDevice
    do { try probe.run() } catch { throw .ffmpegMissing(path: path, tried: ffprobe) }
    let errors = ErrorTail()
    errors.drain(err.fileHandleForReading)
    let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    probe.waitUntilExit()
    errors.wait()
    guard probe.terminationStatus == 0 else {
      throw .unreadable(path: path, message: errors.text.isEmpty ? "ffprobe failed" : errors.text)
    }
    var rates: [String: Double] = [:]
    for line in said.split(separator: "\n") {
      let parts = line.split(separator: "=", maxSplits: 1)
      guard parts.count == 2 else { continue }
      let fraction = parts[1].split(separator: "/")
      if fraction.count == 2, let n = Double(fraction[0]), let d = Double(fraction[1]), d > 0, n > 0 {
        rates[String(parts[0])] = n / d
      }
    }
    guard !said.isEmpty else { throw .unreadable(path: path, message: "no video stream in it") }
    guard let rate = rates["avg_frame_rate"] ?? rates["r_frame_rate"], rate.isFinite, rate <= 1000 else {
      throw .unreadable(path: path, message: "no frame rate (give one with --fps)")
    }
    return rate
  }

  /// The next PNG file of the stream, nil at its clean end.
  private func readPNG() -> Result<[UInt8]?, VideoError> {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    guard fill(8) else {
      return available == 0 ? .success(nil) : .failure(.badStream(path: path, reason: "cut off"))
    }
    guard Array(buffer[bufferStart..<bufferStart + 8]) == signature else {
      return .failure(.badStream(path: path, reason: "not a PNG frame"))
    }
    var length = 8
    while true {
      guard fill(length + 8) else { return .failure(.badStream(path: path, reason: "a frame cut off")) }
      let at = bufferStart + length
      let size = buffer[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
      let isEnd = buffer[at + 4..<at + 8].elementsEqual("IEND".utf8)
      length += 12 + size
      guard length <= maxFrameBytes else {
        return .failure(.badStream(path: path, reason: "a frame of more than \(maxFrameBytes) bytes"))
      }
      if isEnd {
        guard fill(length) else { return .failure(.badStream(path: path, reason: "a frame cut off")) }
        let frame = Array(buffer[bufferStart..<bufferStart + length])
        bufferStart += length
        return .success(frame)
      }
    }
  }

  private var available: Int { buffer.count - bufferStart }

  /// Reads until `count` bytes are buffered; false at the end of the stream first.
  private func fill(_ count: Int) -> Bool {
    if bufferStart > 0 && bufferStart >= buffer.count / 2 {
      buffer.removeFirst(bufferStart)
      bufferStart = 0
    }
    while available < count {
      let chunk = output.availableData
      if chunk.isEmpty { return false }
      buffer.append(contentsOf: chunk)
    }
    return true
  }
}

/// The last few kilobytes a child process wrote to a pipe, read on a thread of its own so
/// that the child never waits on a full pipe.
private final class ErrorTail: @unchecked Sendable {
  private let lock = NSLock()
  private var bytes: [UInt8] = []
  private let done = DispatchSemaphore(value: 0)

  func drain(_ handle: FileHandle) {
    WorkerThread.start {
      while true {
        let chunk = handle.availableData
        if chunk.isEmpty { break }
        self.lock.lock()
        self.bytes.append(contentsOf: chunk)
        if self.bytes.count > 4096 { self.bytes.removeFirst(self.bytes.count - 4096) }
        self.lock.unlock()
      }
      self.done.signal()
    }
  }

  func wait() {
    done.wait()
    done.signal()
  }

  /// The last line said, without the file's own name repeated by ffmpeg.
  var text: String {
    lock.lock()
    defer { lock.unlock() }
    let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map {
      $0.trimmingCharacters(in: .whitespaces)
    }.filter { !$0.isEmpty }
    return lines.last ?? ""
  }
}
