import Foundation
import Testing
import TrafficLight
import TrafficLightKernels
import TrafficLightTestSupport

/// Outputs that cannot take the results, and coordinates past any image: each is said, none
/// hangs, crashes or loses results silently.
@Suite struct OutputFailureTests {
  /// Runs `command` in /bin/sh in the package root, with the built tool as `$TL`; with
  /// `capturing`, what the command writes to the file `$OUT` is returned as its stdout.
  static func shell(_ command: String, capturing: Bool = false) throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    process.currentDirectoryURL = CLIPaths.packageRoot
    let folder = try temporaryFolder()
    process.environment = ["TL": CLIPaths.binary.path, "PATH": "/usr/bin:/bin", "OUT": folder + "/out"]
    let err = folder + "/stderr"
    _ = FileManager.default.createFile(atPath: err, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
    process.standardError = handle
    process.standardOutput = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    try handle.close()
    let out = capturing ? (try? String(contentsOfFile: folder + "/out", encoding: .utf8)) ?? "" : ""
    return Run(
      status: process.terminationStatus, stdout: out, stderr: try String(contentsOfFile: err, encoding: .utf8)
    )
  }

  @Test func stdoutThatCannotBeWritten_isAnError_exitOne() throws {
    let full = try Self.shell(#""$TL" classify --format jsonl SampleFrames/stills > /dev/full"#)
    #expect(full.status == 1)
    #expect(full.stderr.hasSuffix("Error: cannot write standard output: No space left on device\n"))
    let closed = try Self.shell(#""$TL" classify --format jsonl SampleFrames/stills >&-"#)
    #expect(closed.status == 1)
    #expect(
      closed.stderr.hasSuffix("Error: cannot write standard output: it was closed when the run began\n"))
  }

  @Test func aReaderThatStops_endsTheRunQuietly() throws {
    let run = try Self.shell(#""$TL" classify --format jsonl SampleFrames | head -c 10 > /dev/null"#)
    #expect(run.status == 0)
    #expect(!run.stderr.contains("Error"))
  }

  @Test func aFifoOrDevice_isRefusedAsAnOutput_withoutWaiting() throws {
    let folder = try temporaryFolder()
    let fifo = folder + "/results.fifo"
    #expect(mkfifo(fifo, 0o644) == 0)
    for option in ["-o", "--timeline"] {
      let command: [String] =
        option == "-o"
        ? ["classify", "-o", fifo, "SampleFrames/stills/red"]
        : ["sequence", "--timeline", fifo, "SampleFrames/stills/red"]
      let run = try traffic(command, timeout: 30)
      #expect(run.status == 1, "\(option)")
      #expect(run.stderr.contains("cannot write \(fifo): not a regular file"), "\(option): \(run.stderr)")
    }
    #expect(try traffic("classify", "-o", "/dev/null", "SampleFrames/stills/red").status == 0)
  }

  @Test(arguments: [
    "9223372036854775807,0,10,10", "0,9223372036854775807,10,10", "-9223372036854775808,0,10,10",
  ])
  func roiPastAnyImage_readsUnknown_andSaysSo(roi: String) throws {
    let run = try traffic("classify", "--format", "jsonl", "--roi", roi, "SampleFrames/stills/red")
    #expect(run.status == 0)
    #expect(run.stdout.split(separator: "\n").allSatisfy { $0.contains(#""color":"unknown""#) })
    #expect(run.stderr.contains("lies outside the image"))
  }

  @Test func roiLargerThanAnyImage_isClippedToIt() throws {
    let run = try traffic(
      "classify", "--format", "jsonl", "--profile", "seed", "--roi",
      "0,0,9223372036854775807,9223372036854775807",
      "SampleFrames/stills/red")
    let whole = try traffic("classify", "--format", "jsonl", "--profile", "seed", "SampleFrames/stills/red")
    #expect(run.status == 0)
    let colours = { (text: String) in text.split(separator: "\n").map { $0.contains(#""color":"red""#) } }
    #expect(colours(run.stdout) == colours(whole.stdout))
    #expect(
      PixelRegion(x: 5, y: 5, width: .max, height: .max).clipped(toWidth: 20, height: 10)
        == PixelRegion(x: 5, y: 5, width: 15, height: 5))
  }
}

@Suite struct TerminalSafetyTests {
  /// A name that would retitle the terminal (OSC 0 ... BEL), return the carriage and ring the
  /// bell: text and stderr show it escaped; jsonl keeps it exactly, JSON-escaped.
  @Test func controlCharactersInNames_areEscapedInTextAndNotes() throws {
    let folder = try temporaryFolder()
    let name = "title\u{1B}]0;pwned\u{07}\r.png"
    try writePNG(syntheticLight(lit: .red), to: folder + "/" + name)
    try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/notes\u{1B}[2J.txt"))
    let run = try traffic("classify", "--profile", "seed", "--verbose", folder)
    #expect(run.status == 0)
    for text in [run.stdout, run.stderr] {
      #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(text)")
    }
    #expect(run.stdout.contains(#"title\x1b]0;pwned\x07\x0d.png"#))
    #expect(run.stderr.contains(#"notes\x1b[2J.txt"#))
    let json = try traffic("classify", "--profile", "seed", "--format", "jsonl", folder)
    #expect(json.stdout.contains(#"title\u001b]0;pwned\u0007\r.png"#))
  }
}

@Suite struct OutputFileTests {
  static var host: String {
    var buffer = [CChar](repeating: 0, count: 256)
    _ = gethostname(&buffer, 255)
    let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return String(name.map { $0 == "-" || $0 == "/" ? "_" : $0 })
  }

  /// A name at the file system's 255-byte limit: the temporary file needs no longer one.
  @Test func anOutputNamedNearTheLimit_isWritten() throws {
    let folder = try temporaryFolder()
    let output = folder + "/" + String(repeating: "r", count: 250) + ".csv"
    let run = try traffic("classify", "--format", "csv", "-o", output, "SampleFrames/stills/red")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try String(contentsOfFile: output, encoding: .utf8).hasPrefix("path,"))
  }

  /// A killed run leaves its temporary file; the next run into that folder removes it, but
  /// not one of a live process or of another host sharing the folder.
  @Test func leftoversOfKilledRuns_areRemoved_othersKept() throws {
    let folder = try temporaryFolder()
    let dead = folder + "/.traffic-light-partial-\(Self.host)-99999999-1"
    let live = folder + "/.traffic-light-partial-\(Self.host)-\(getpid())-1"
    let elsewhere = folder + "/.traffic-light-partial-otherhost-99999999-1"
    for path in [dead, live, elsewhere] {
      _ = FileManager.default.createFile(atPath: path, contents: Data("x".utf8))
    }
    let run = try traffic("classify", "-o", folder + "/results.txt", "SampleFrames/stills/red")
    #expect(run.status == 0)
    #expect(!FileManager.default.fileExists(atPath: dead))
    #expect(FileManager.default.fileExists(atPath: live))
    #expect(FileManager.default.fileExists(atPath: elsewhere))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        == [
          (elsewhere as NSString).lastPathComponent, (live as NSString).lastPathComponent, "results.txt",
        ].sorted())
  }

  @Test func outputsThatWouldLandOnOneAnother_areRefusedUpFront() throws {
    let folder = try temporaryFolder()
    let same = try traffic(
      "sequence", "-o", folder + "/x.svg", "--timeline", folder + "/./x.svg", "SampleFrames/carpark-sequence")
    #expect(same.status == 64)
    #expect(same.stderr.hasPrefix("Error: --output and --timeline are the same file"))
    let masks = folder + "/masks"
    let onAMask = try traffic(
      "classify", "--mask", masks, "-o", masks + "/real_400_2.mask.png", "SampleFrames/carpark-sequence")
    #expect(onAMask.status == 64)
    #expect(onAMask.stderr.contains("is the name of a mask"))
    #expect(!FileManager.default.fileExists(atPath: masks + "/real_400_2.mask.png"))
  }
}

/// The kernel level forced through the environment: the C levels the CPU runs read the
/// stills byte for byte alike, and the portable (Float) level names the same colours; a level
/// the CPU cannot run, or a name that is no level, is refused.
@Suite struct KernelLevelEnvironmentTests {
  @Test func forcedLevels_readAlike_andImpossibleOnesAreRefused() throws {
    var readings: [String: String] = [:]
    for level in KernelLevel.supported {
      let run = try OutputFailureTests.shell(
        #"TRAFFIC_LIGHT_KERNELS=\#(level.rawValue) "$TL" classify --format jsonl SampleFrames/stills > "$OUT""#,
        capturing: true)
      #expect(run.status == 0, "\(level): \(run.stderr)")
      readings[level.rawValue] = run.stdout
    }
    let cLevels = KernelLevel.supported.filter { $0 != .portable }.map { readings[$0.rawValue]! }
    #expect(Set(cLevels).count == 1, "the C levels read the stills differently")
    func colours(_ jsonl: String) -> [String] {
      jsonl.split(separator: "\n").compactMap { line -> String? in
        guard let range = line.range(of: #""color":""#) else { return nil }
        return String(line[range.upperBound...].prefix { $0 != "\"" })
      }
    }
    let generic = colours(readings["generic"] ?? "")
    #expect(generic.count >= 10)
    #expect(colours(readings["portable"] ?? "") == generic)
    let unknown = try OutputFailureTests.shell(
      #"TRAFFIC_LIGHT_KERNELS=fast "$TL" classify SampleFrames/stills"#)
    #expect(unknown.status == 64)
    #expect(unknown.stderr.contains("TRAFFIC_LIGHT_KERNELS=fast names no kernel level"))
    for level in KernelLevel.allCases where !level.isSupported {
      let refused = try OutputFailureTests.shell(
        #"TRAFFIC_LIGHT_KERNELS=\#(level.rawValue) "$TL" classify SampleFrames/stills"#)
      #expect(refused.status == 64)
      #expect(refused.stderr.contains("this CPU does not run it"))
    }
  }
}

/// `-o` onto a symbolic link writes the file the link leads to, keeping the link and the
/// file's permissions (it once replaced the link with a new file of mode 0644).
@Suite struct SymlinkOutputTests {
  @Test func outputThroughALink_writesItsTarget_keepingLinkAndMode() throws {
    let folder = try temporaryFolder()
    let run = try OutputFailureTests.shell(
      """
      cd '\(folder)' && mkdir sub && echo old > sub/results.txt && chmod 600 sub/results.txt \
        && ln -s sub/results.txt link && ln -s link chain \
        && "$TL" classify -o chain "$OLDPWD/SampleFrames/stills" \
        && test -L link && test -L chain && stat -c %a sub/results.txt > "$OUT" \
        && head -c 4 sub/results.txt >> "$OUT"
      """, capturing: true)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == "600\nPATH", "\(run.stdout)")
    let dangling = try OutputFailureTests.shell(
      """
      cd '\(folder)' && ln -s new.txt dangling && "$TL" classify -o dangling "$OLDPWD/SampleFrames/stills" \
        && test -L dangling && head -c 4 new.txt > "$OUT"
      """, capturing: true)
    #expect(dangling.status == 0, "\(dangling.stderr)")
    #expect(dangling.stdout == "PATH")
  }
}

/// File names are bytes: a name that is not UTF-8, in a folder or given as an argument, is
/// read, shown with \xNN in text and CSV, and given whole in jsonl's "pathBytes".
@Suite struct ByteNameTests {
  @Test func nameThatIsNotUTF8_isReadAndReportedRoundTrippably() throws {
    let folder = try temporaryFolder()
    let run = try OutputFailureTests.shell(
      """
      cd '\(folder)' && mkdir d && cp "$OLDPWD/SampleFrames/stills/green/0223f090-357c-4230-97aa-b238eae4b37a.jpg" \
        "d/bad$(printf '\\377\\376').jpg" \
        && "$TL" classify --format jsonl "d/bad$(printf '\\377\\376').jpg" > "$OUT" \
        && "$TL" classify d >> "$OUT" && "$TL" sequence --format csv d >> "$OUT"
      """, capturing: true)
    #expect(run.status == 0, "\(run.stderr)")
    let base64 = Data(Array("d/bad".utf8) + [0xFF, 0xFE] + Array(".jpg".utf8)).base64EncodedString()
    #expect(
      run.stdout.contains(
        #"{"path":"d/bad\\xff\\xfe.jpg","pathBytes":"\#(base64)","read":"crop","color":"green""#))
    #expect(run.stdout.contains("d/bad\\xff\\xfe.jpg  crop   -                    green"))
    #expect(run.stdout.contains("d/bad\\xff\\xfe.jpg,crop,,,,,green"))
  }
}
