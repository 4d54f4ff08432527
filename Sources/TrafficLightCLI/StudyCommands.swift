import Foundation
import TrafficLight
import TrafficLightStudy

/// `evaluate` and `calibrate`: measure a profile on labelled images, or fit one to them.
enum StudyCommand: String {
  case evaluate
  case calibrate

  var usage: String {
    switch self {
    case .evaluate:
      "Usage: traffic-light evaluate [--profile NAME|FILE] [--as crops|frames|recording] [--orientation O] [--format text|jsonl] [--smoothing S] [--misses] [--candidates FILE.csv] DIR..."
    case .calibrate: "Usage: traffic-light calibrate [options] DIR... -o PROFILE.json"
    }
  }

  var help: String {
    switch self {
    case .evaluate:
      """
      Reads labelled images and compares the colours with the labels.

      \(usage)

      A DIR holds red/, yellow/, green/ (and optionally unknown/) folders of images, or a
      labels.csv with 'file' and 'state' columns (state red, yellow, green or unknown); or
      whole frames with a boxes.csv; or a labelled recording: frames/ and a labels.csv of
      'index,file,state' in time order, read as 'sequence' reads it with the profile's
      smoothing, and measured frame by frame and smoothed (lit frames right, red read as
      green, dark frames read unknown, the label's changes made within 2 frames and the
      median lag).
      Prints, per DIR, the confusion matrix (rows: the labels; columns: what was read), the
      accuracy over the images labelled red, yellow or green, the recall of each colour and
      the number of red lights read as green.

      Options:
        --profile NAME|FILE   the profile to measure (default: default)
        --as crops|frames|recording
                              how to read every DIR: labelled crops, boxed frames, or
                              a labelled recording. Needed for a DIR that holds more
                              than one (say, both boxes.csv and red/ yellow/ green/):
                              without it such a DIR is refused, naming what it holds
        --orientation auto|vertical|horizontal
                              read the lights as running this way, and look only for
                              such heads (as classify's --orientation); on boxed frames,
                              the heads the finder looks for (default: the profile's
                              for crops, both for frames)
        --format text|jsonl   a report for people (default), or one JSON object per DIR
        --smoothing vote|offline|online
                              on labelled recordings, the smoothing measured (default:
                              the profile's)
        --misses              also name every image whose reading differs from its label
                              (with the rule that decided it when that was not the vote)
        --candidates FILE.csv
                              on boxed frames, also write every candidate lamp the
                              finder measured, whether it is a labelled lit lamp, and
                              its measurements (what scripts/fit_lamp_evidence.py fits)
        --jobs N              threads (default: one per core)
        -h, --help            show this help

      """
    case .calibrate:
      """
      Fits a profile's thresholds to labelled images and writes it as JSON, for --profile.

      \(usage)

      DIRs are labelled as for 'evaluate': crops, or whole frames with a boxes.csv of
      housings (file,state,xmin,ymin,xmax,ymax), each box read as its light's crop (the
      region of its frame). The blur, points, columns, orientation, locator
      and the decider's structure (lamp order, which rules it has) are kept from the
      starting profile; the values each part declares as tunable are searched: the hue
      bounds, per-colour saturation floors and value floor, then the decider's (for the
      cascade, its vote's weights and each rule's own values; a rule may be switched off,
      never added). Coordinate descent over each value's grid, from the starting profile
      and a few fixed random starts. The score is the mean over the DIRs of accuracy, with each red light read as
      green counted as --penalty mistakes. From a profile whose decider is a light network
      (fitted), each image is measured once and the network's readout alone is refitted
      (logistic regression on its features, a red light's probability of green added to
      the loss); the convolutions are kept. Cross-validation fits each fold on its own
      thread (up to --jobs at once).

      DIRs that are labelled recordings of one camera (frames/ and labels.csv of
      index,file,state, as 'evaluate' reads them) fit the frame finder to that camera
      instead: a search by housings (three lamps in a column, one unlike the other two,
      in a housing apart from its surround), for lamps the camera burns out to white.
      Which light carries a frame's state is not given: the fit learns it from the
      states alone. The profile written is the starting one with that search added to
      its finder; --split folders first reads each recording with a fit to the others.

      Options:
        -o, --output FILE     where to write the profile (required; written atomically)
        --from NAME|FILE      the starting profile (default: default)
        --name NAME           the new profile's name (default: the file name)
        --folds K             also report K-fold cross-validated accuracy (default: 0, none)
        --split blocks|interleaved|folders
                              how the folds are made: blocks, K contiguous blocks of each
                              DIR in its order, so neighbouring frames of a sequence never
                              sit on both sides (default); interleaved, frame i in fold
                              i mod K; folders, each DIR read by a profile fitted on the
                              other DIRs alone (no --folds; two DIRs or more)
        --partitions R        with --split interleaved: repeat the cross-validation over R
                              different shuffles into folds
                              and report each and their mean (default: 1)
        --penalty P           mistakes one red-read-as-green counts as (default: 20)
        --jobs N              threads for decoding and folds (default: one per core)
        -h, --help            show this help

      """
    }
  }

  /// How `--split` makes the folds.
  enum SplitKind: String {
    case blocks, interleaved, folders
  }

  struct Options: Equatable {
    var profile = "default"
    var orientation: Orientation?
    var format = OutputFormat.text
    var jobs: Int?
    var output: String?
    var name: String?
    var misses = false
    var candidates: String?
    /// `--as`: how every DIR is read, when given.
    var readAs: FolderKind?
    /// On labelled recordings: the smoothing measured, over the profile's.
    var smoothing: Smoothing.Kind?
    var folds = 0
    var split = SplitKind.blocks
    var partitions = 1
    var penalty = 20.0
    var folders: [String] = []
    var help = false
  }

  func parse(_ arguments: [String]) throws(CommandError) -> Options {
    var options = Options()
    var scanner = ArgumentScanner(arguments)
    while let token = scanner.next() {
      switch token {
      case .operand(let folder): options.folders.append(folder)
      case .option(let name, let inline?) where ["-h", "--help", "--misses"].contains(name):
        try ArgumentScanner.refuseValue(of: name, inline: inline)
      case .option("-h", _), .option("--help", _): options.help = true
      case .option("--profile", let inline) where self == .evaluate:
        options.profile = try scanner.value(of: "--profile", inline: inline)
      case .option("--from", let inline) where self == .calibrate:
        options.profile = try scanner.value(of: "--from", inline: inline)
      case .option("--misses", _) where self == .evaluate: options.misses = true
      case .option("--smoothing", let inline) where self == .evaluate:
        let text = try scanner.value(of: "--smoothing", inline: inline)
        guard let kind = Smoothing.Kind(rawValue: text) else {
          throw CommandError("--smoothing must be vote, offline or online, not '\(text)'")
        }
        options.smoothing = kind
      case .option("--candidates", let inline) where self == .evaluate:
        options.candidates = try scanner.value(of: "--candidates", inline: inline)
        if options.candidates == "-" {
          throw CommandError("--candidates -: evaluate writes its report on standard output; name a file")
        }
      case .option("--as", let inline) where self == .evaluate:
        let text = try scanner.value(of: "--as", inline: inline)
        guard let kind = FolderKind(rawValue: text) else {
          throw CommandError("--as must be crops, frames or recording, not '\(text)'")
        }
        options.readAs = kind
      case .option("--orientation", let inline) where self == .evaluate:
        options.orientation = try Orientation.parsed(try scanner.value(of: "--orientation", inline: inline))
      case .option("--format", let inline) where self == .evaluate:
        options.format = try OutputFormat.parse(try scanner.value(of: "--format", inline: inline))
        if options.format == .csv { throw CommandError("evaluate writes text or jsonl") }
      case .option("--jobs", let inline):
        let text = try scanner.value(of: "--jobs", inline: inline)
        guard let jobs = Int(text), (1...1024).contains(jobs) else {
          throw CommandError("--jobs must be a whole number from 1 to 1024, not '\(text)'")
        }
        options.jobs = jobs
      case .option(let name, let inline) where self == .calibrate && (name == "-o" || name == "--output"):
        options.output = try scanner.value(of: name, inline: inline)
        if options.output == "-" {
          throw CommandError(
            "\(name) -: calibrate writes its report on standard output; name a file for the profile")
        }
      case .option("--name", let inline) where self == .calibrate:
        options.name = try scanner.value(of: "--name", inline: inline)
      case .option("--folds", let inline) where self == .calibrate:
        let text = try scanner.value(of: "--folds", inline: inline)
        guard let folds = Int(text), folds == 0 || (2...20).contains(folds) else {
          throw CommandError("--folds must be 0 or a whole number from 2 to 20, not '\(text)'")
        }
        options.folds = folds
      case .option("--split", let inline) where self == .calibrate:
        let text = try scanner.value(of: "--split", inline: inline)
        guard let split = SplitKind(rawValue: text) else {
          throw CommandError("--split must be blocks, interleaved or folders, not '\(text)'")
        }
        options.split = split
      case .option("--partitions", let inline) where self == .calibrate:
        let text = try scanner.value(of: "--partitions", inline: inline)
        guard let partitions = Int(text), (1...20).contains(partitions) else {
          throw CommandError("--partitions must be a whole number from 1 to 20, not '\(text)'")
        }
        options.partitions = partitions
      case .option("--penalty", let inline) where self == .calibrate:
        let text = try scanner.value(of: "--penalty", inline: inline)
        guard let penalty = Double(text), penalty >= 0, penalty <= 1000 else {
          throw CommandError("--penalty must be a number from 0 to 1000, not '\(text)'")
        }
        options.penalty = penalty
      case .option(let name, _): throw CommandError("unknown option '\(name)'")
      }
    }
    if options.help { return options }
    if options.folders.isEmpty { throw CommandError("no DIR given") }
    if self == .calibrate && options.output == nil { throw CommandError("calibrate needs -o PROFILE.json") }
    if options.partitions > 1 && options.folds == 0 { throw CommandError("--partitions needs --folds") }
    if options.partitions > 1 && options.split != .interleaved {
      throw CommandError("--partitions needs --split interleaved (blocks and folders split one way)")
    }
    if options.split == .folders {
      if options.folds > 0 { throw CommandError("--split folders makes one fold per DIR: leave out --folds") }
      if options.folders.count < 2 { throw CommandError("--split folders needs two DIRs or more") }
    }
    return options
  }

  func run(_ options: Options, console: inout Console) throws(CommandError) -> Int32 {
    var profile: Profile
    do {
      profile = try Profile.named(options.profile)
    } catch {
      throw CommandError(error)
    }
    if let orientation = options.orientation { profile = profile.oriented(orientation) }
    if let kind = options.smoothing { profile.smoothing.kind = kind }
    try Self.refuseOverwritingInputs(options)
    let jobs = options.jobs ?? ProcessInfo.processInfo.activeProcessorCount
    // What each folder is read as: the kind it holds, or --as; a folder holding several
    // kinds is refused without --as rather than read one way silently.
    var kinds: [String: FolderKind] = [:]
    for folder in options.folders {
      let held = FolderKind.held(by: folder)
      if let readAs = options.readAs {
        guard held.contains(readAs) || held.isEmpty else {
          throw CommandError(
            "\(folder) holds \(readAs.none) (it holds \(held.map(\.what).joined(separator: " and ")))")
        }
        kinds[folder] = readAs
      } else if self == .calibrate {
        // calibrate fits crops: a folder that holds them is read so.
        kinds[folder] = held.contains(.crops) ? .crops : held.first ?? .crops
      } else if held.count > 1 {
        throw CommandError(
          "\(folder) holds both \(held.map(\.what).joined(separator: " and ")): say which to read with --as "
            + held.map(\.rawValue).joined(separator: "|"))
      } else {
        kinds[folder] = held.first ?? .crops
      }
    }
    if options.candidates != nil && !options.folders.allSatisfy({ kinds[$0] == .frames }) {
      throw CommandError("--candidates reads folders of boxed frames only (frames/ and boxes.csv)")
    }
    if self == .calibrate && options.folders.contains(where: { kinds[$0] == .recording }) {
      guard options.folders.allSatisfy({ kinds[$0] == .recording }) else {
        throw CommandError(
          "calibrate fits crop folders or labelled recordings (frames/ and labels.csv with index), not both at once"
        )
      }
      return try calibrateRecordings(profile, options, jobs: jobs, console: &console)
    }
    if self == .evaluate && options.folders.contains(where: { kinds[$0] != .crops }) {
      return try evaluateMixed(profile, options, kinds: kinds, jobs: jobs, console: &console)
    }
    var sets: [(String, [LabelledImage])] = []
    for folder in options.folders {
      do {
        // calibrate reads boxed frames' housings as lights (evaluate, above, searches them).
        sets.append(
          (
            folder,
            kinds[folder] == .frames ? try BoxedFrames.labelledLights(folder) : try LabelledSet.load(folder)
          ))
      } catch {
        throw CommandError(error)
      }
    }
    switch self {
    case .evaluate: return evaluate(profile, sets, options, jobs: jobs, console: &console)
    case .calibrate: return try calibrate(profile, sets, options, jobs: jobs, console: &console)
    }
  }

  /// Refuses a file this command writes (`calibrate -o`, `evaluate --candidates`) that is one
  /// of the files it reads in its folders (an image, `labels.csv`, `boxes.csv`), by any path
  /// or link.
  private static func refuseOverwritingInputs(_ options: Options) throws(CommandError) {
    let outputs = [("--output", options.output), ("--candidates", options.candidates)]
    // Only an output that exists already can be an input: otherwise no folder is walked.
    guard outputs.contains(where: { $0.1.flatMap(ImageCommand.realPath) != nil }) else { return }
    var inputs = Set<String>()
    for folder in options.folders {
      guard let names = FileManager.default.enumerator(atPath: folder) else { continue }
      for case let name as String in names {
        let file = (name as NSString).lastPathComponent
        guard InputCollector.isImageName(file) || file == "labels.csv" || file == "boxes.csv" else {
          continue
        }
        if let real = ImageCommand.realPath((folder as NSString).appendingPathComponent(name)) {
          inputs.insert(real)
        }
      }
    }
    try ImageCommand.refuse(outputs, overwriting: inputs)
  }

  /// `evaluate` over folders some of which hold boxed frames: each folder in turn, by its kind.
  private func evaluateMixed(
    _ profile: Profile, _ options: Options, kinds: [String: FolderKind], jobs: Int, console: inout Console
  ) throws(CommandError) -> Int32 {
    var candidateRows = [Self.candidateHeader]
    var status: Int32 = 0
    for (index, folder) in options.folders.enumerated() {
      if index > 0 && options.format != .jsonl { console.out("") }
      if kinds[folder] == .recording {
        let recording: LabelledRecording
        do { recording = try LabelledRecording.load(folder) } catch { throw CommandError(error) }
        let (score, unreadable) = Self.evaluate(recording, profile, options, jobs: jobs, console: &console)
        Self.reportRecording(score, folder: folder, profile: profile, options, console: &console)
        if unreadable > 0 { status = 1 }
      } else if kinds[folder] == .frames {
        let frames: [BoxedFrame]
        do { frames = try BoxedFrames.load(folder) } catch { throw CommandError(error) }
        let evaluator = FrameEvaluator(
          finder: profile.frameFinder(heads: options.orientation ?? .auto),
          pipeline: FramePipeline(profile: profile))
        let report = evaluator.evaluate(frames, jobs: jobs)
        Self.reportFrames(
          report, folder: folder, leastConfidence: evaluator.finder.minimumConfidence, options,
          console: &console)
        if report.failures > 0 { status = 1 }
        if options.candidates != nil {
          candidateRows += Self.candidateRows(evaluator.candidates(of: frames, jobs: jobs), folder: folder)
        }
      } else {
        let images: [LabelledImage]
        do { images = try LabelledSet.load(folder) } catch { throw CommandError(error) }
        status = max(status, evaluate(profile, [(folder, images)], options, jobs: jobs, console: &console))
      }
    }
    if let path = options.candidates,
      let problem = AtomicFile.write(Array(candidateRows.joined(separator: "\n").utf8) + [0x0A], to: path)
    {
      console.err("Error: \(problem)")
      return 1
    }
    return status
  }

  /// A labelled recording read as `sequence` reads a folder of frames with the profile's
  /// smoothing: frames over 320x320 searched for their lights, the rest read as crops.
  /// Frames that cannot be read stay in the recording (they say nothing of the light), are
  /// named, and counted (the second value).
  private static func evaluate(
    _ recording: LabelledRecording, _ profile: Profile, _ options: Options, jobs: Int, console: inout Console
  ) -> (RecordingScore, unreadable: Int) {
    let finder = profile.frameFinder(heads: options.orientation ?? .auto)
    let reader = ImageReader(
      pipeline: FramePipeline(profile: profile),
      regions: .framesOrCrops(finder, largestCrop: RegionSource.largestCrop))
    var classifier = SequenceClassifier(smoothing: profile.smoothing)
    var steps: [SequenceStep] = []
    var failures: [(String, String)] = []
    let paths = recording.frames.map(\.path)
    OrderedParallelMap.stream(count: paths.count, jobs: jobs, window: 4 * jobs) { i in
      reader.read(paths[i]).forKeeping()
    } consume: { _, reading in
      if case .failure(let error) = reading.outcome { failures.append((reading.path, error.reason)) }
      steps += classifier.feed(reading)
      return true
    }
    steps += classifier.finish().steps
    for (path, reason) in failures { console.err("Error: \(path): \(reason)") }
    let score = RecordingScore(
      truth: recording.frames.map(\.truth), frames: steps.map(\.color), smoothed: steps.map(\.smoothed))
    return (score, failures.count)
  }

  /// A recording's figures: each frame's own colour and the smoothed colour against the labels.
  private static func reportRecording(
    _ score: RecordingScore, folder: String, profile: Profile, _ options: Options, console: inout Console
  ) {
    func share(_ count: Int, of total: Int) -> Double { total == 0 ? 0 : Double(count) / Double(total) }
    if options.format == .jsonl {
      var line = JSONLine()
      line.add("folder", folder)
      line.add("profile", profile.name)
      line.add("smoothing", profile.smoothing.kind.rawValue)
      line.add("lit", score.lit)
      line.add("dark", score.dark)
      for (name, right, redAsGreen, darkUnknown) in [
        ("frames", score.framesRight, score.framesRedAsGreen, score.framesDarkUnknown),
        ("smoothed", score.smoothedRight, score.smoothedRedAsGreen, score.smoothedDarkUnknown),
      ] {
        var part = JSONLine()
        part.add("right", right)
        part.add("accuracy", share(right, of: score.lit))
        part.add("redCalledGreen", redAsGreen)
        part.add("darkUnknown", darkUnknown)
        line.add(name, object: part)
      }
      line.add("changes", score.changes)
      line.add("changesWithinTwo", score.changesWithinTwo)
      if let lag = score.medianLag { line.add("medianLag", lag) }
      console.out(line.closed)
      return
    }
    let lines = [
      "\(folder): profile \(profile.name), smoothing \(profile.smoothing.kind.rawValue), "
        + "\(score.lit + score.dark) frames (\(score.lit) lit, \(score.dark) dark)",
      "            lit right            red read as green  dark read unknown",
      "  frames    "
        + padded("\(percent(share(score.framesRight, of: score.lit))) (\(score.framesRight))", to: 21)
        + padded(String(score.framesRedAsGreen), to: 19) + "\(score.framesDarkUnknown) of \(score.dark)",
      "  smoothed  "
        + padded("\(percent(share(score.smoothedRight, of: score.lit))) (\(score.smoothedRight))", to: 21)
        + padded(String(score.smoothedRedAsGreen), to: 19) + "\(score.smoothedDarkUnknown) of \(score.dark)",
      "changes made within 2 frames: \(score.changesWithinTwo) of \(score.changes)"
        + (score.medianLag.map { ", median lag \($0) frames" } ?? ", none made"),
    ]
    console.out(lines.joined(separator: "\n"))
  }

  private func evaluate(
    _ profile: Profile, _ sets: [(String, [LabelledImage])], _ options: Options, jobs: Int,
    console: inout Console
  ) -> Int32 {
    let evaluator = Evaluator(
      reader: ImageReader(pipeline: FramePipeline(profile: profile), regions: .wholeImage))
    var status: Int32 = 0
    for (index, (folder, images)) in sets.enumerated() {
      let report = evaluator.evaluate(images, jobs: jobs)
      // Images that could not be read are named and left out of every figure.
      for (image, error) in report.failures { console.err("Error: \(image.path): \(error.reason)") }
      if !report.failures.isEmpty { status = 1 }
      let confusion = report.confusion
      let misses = report.misses
      let coverage = report.coverage(at: Self.thresholds)
      switch options.format {
      case .jsonl:
        var line = Self.json(confusion, folder: folder, profile: profile.name)
        line.add(
          "coverage",
          array: coverage.map { point in
            var object = JSONLine()
            object.add("minimumConfidence", point.minimumConfidence)
            object.add("answered", point.answered)
            object.add("accuracy", point.accuracy)
            object.add("redCalledGreen", point.redCalledGreen)
            if let unlitNamed = point.unlitNamed { object.add("unlitNamed", unlitNamed) }
            return object
          })
        if !report.failures.isEmpty { line.add("unreadable", report.failures.count) }
        if options.misses { line.add("misses", array: misses.map(Self.json)) }
        console.out(line.closed)
      default:
        if index > 0 { console.out("") }
        console.out(Self.report(confusion, folder: folder, profile: profile.name, images: images.count))
        if !report.failures.isEmpty {
          console.out("left out, could not be read: \(report.failures.count) images (named above)")
        }
        console.out(Self.table(coverage))
        if options.misses {
          console.out("misread: \(misses.count)")
          for miss in misses { console.out("  " + Self.text(miss)) }
        }
      }
    }
    return status
  }

  private func calibrate(
    _ start: Profile, _ sets: [(String, [LabelledImage])], _ options: Options, jobs: Int,
    console: inout Console
  ) throws(CommandError) -> Int32 {
    let output = options.output!
    let name = options.name ?? ((output as NSString).lastPathComponent as NSString).deletingPathExtension
    var calibrator = Calibrator(start: start)
    calibrator.redCalledGreenPenalty = options.penalty
    // A colour with few examples gives a fit that cannot be trusted: say so before fitting.
    for color in [SignalColor.red, .yellow, .green] {
      let counts = sets.map { set in set.1.filter { $0.truth == color }.count }
      let total = counts.reduce(0, +)
      guard total < Self.fewestPerColour else { continue }
      let each = zip(sets, counts).map { "\($0.0.0) \($0.1)" }.joined(separator: ", ")
      console.err(
        "Warning: only \(total) \(color.rawValue) image\(total == 1 ? "" : "s") (\(each)): a fit to fewer than "
          + "\(Self.fewestPerColour) of a colour is not to be trusted; label more")
    }
    let prepared = sets.map { calibrator.prepare($0.1, name: $0.0, jobs: jobs) }
    for set in prepared {
      for error in set.unreadable { console.err("Note: left out \(error.description)") }
    }
    guard prepared.contains(where: { $0.count > 0 }) else {
      console.err(
        "Error: no image could be read in \(sets.map(\.0).joined(separator: ", ")): no profile written")
      return 1
    }
    if options.folds > 0 || options.split == .folders {
      crossValidate(calibrator, prepared, options, jobs: jobs, console: &console)
    }
    let fitted = calibrator.fit(prepared, name: name)
    // Both profiles on the images of the fit, side by side, and whether the fit is better.
    console.out("On all images, the starting profile (\(start.name)) and the fit (\(name)):")
    let before = Evaluator(reader: ImageReader(pipeline: FramePipeline(profile: start), regions: .wholeImage))
    let after = Evaluator(reader: ImageReader(pipeline: FramePipeline(profile: fitted), regions: .wholeImage))
    var totals = (before: (right: 0, redGreen: 0), after: (right: 0, redGreen: 0))
    for (folder, images) in sets {
      let (was, now) = (
        before.evaluate(images, jobs: jobs).confusion, after.evaluate(images, jobs: jobs).confusion
      )
      totals.before.right += was.correct
      totals.before.redGreen += was.redCalledGreen
      totals.after.right += now.correct
      totals.after.redGreen += now.redCalledGreen
      console.out("  \(folder):")
      console.out("    \(padded(start.name, to: 12)) \(Self.summary(was))")
      console.out("    \(padded(name, to: 12)) \(Self.summary(now))")
    }
    let gained = totals.after.right - totals.before.right
    let verdict =
      totals.after.redGreen > totals.before.redGreen
      ? "The fit reads more red lights as green than \(start.name) (\(totals.after.redGreen) against "
        + "\(totals.before.redGreen)): keep \(start.name)."
      : gained > 0
        ? "The fit reads \(gained) more right than \(start.name)."
        : "The fit reads no more right than \(start.name) (\(gained)): keep \(start.name)."
    console.out(
      verdict
        + " These are the images it was fitted to: --folds K or --split folders say how it reads others.")
    if let problem = AtomicFile.write(Array(fitted.json()) + [0x0A], to: output) {
      console.err("Error: \(problem)")
      return 1
    }
    console.out("Wrote \(output) (use it with --profile \(output))")
    return 0
  }

  /// `calibrate` on labelled recordings: the frame finder's housing search fitted to the
  /// camera (`HousingFit`), written into the starting profile's finder. With `--split
  /// folders`, first each recording read (as `evaluate` reads it) by a fit to the others.
  private func calibrateRecordings(
    _ start: Profile, _ options: Options, jobs: Int, console: inout Console
  ) throws(CommandError) -> Int32 {
    guard var locator = start.locator as? LitLampRegion else {
      throw CommandError(
        "calibrate on recordings fits the frame finder of a profile whose locator finds lamps (default or fitted), "
          + "not \(start.name)")
    }
    if options.folds > 0 {
      throw CommandError("recordings are left out whole: use --split folders, not --folds")
    }
    let output = options.output!
    let name = options.name ?? ((output as NSString).lastPathComponent as NSString).deletingPathExtension
    var recordings: [LabelledRecording] = []
    for folder in options.folders {
      do { recordings.append(try LabelledRecording.load(folder)) } catch { throw CommandError(error) }
    }
    var fit = HousingFit(
      minimumConfidence: locator.finder.minimumConfidence, geometry: locator.finder.housings)
    fit.redCalledGreenPenalty = options.penalty
    let prepared = recordings.map { fit.prepare($0, jobs: jobs) }
    for (recording, set) in zip(recordings, prepared) {
      for error in set.unreadable { console.err("Note: left out \(error.description) (\(recording.folder))") }
    }
    guard prepared.contains(where: { !$0.frames.isEmpty }) else {
      console.err(
        "Error: no frame could be read in \(options.folders.joined(separator: ", ")): no profile written")
      return 1
    }
    func profile(_ search: HousingSearch, named profileName: String) -> Profile {
      var profile = start
      profile.name = profileName
      locator.finder.housings = search
      profile.locator = locator
      return profile
    }
    var status: Int32 = 0
    if options.split == .folders {
      guard recordings.count > 1 else { throw CommandError("--split folders needs two recordings or more") }
      console.out("Each recording read by a fit to the others:")
      for (index, recording) in recordings.enumerated() {
        let others = prepared.indices.filter { $0 != index }.flatMap { prepared[$0].frames }
        let heldOut = profile(
          fit.fit(others), named: "\(name) without \((recording.folder as NSString).lastPathComponent)")
        let (score, unreadable) = Self.evaluate(recording, heldOut, options, jobs: jobs, console: &console)
        Self.reportRecording(score, folder: recording.folder, profile: heldOut, options, console: &console)
        if unreadable > 0 { status = 1 }
      }
      if options.format != .jsonl { console.out("") }
    }
    let fitted = profile(fit.fit(prepared.flatMap(\.frames)), named: name)
    console.out("The fit on every recording, read on them (the frames it was fitted to):")
    for recording in recordings {
      let (score, _) = Self.evaluate(recording, fitted, options, jobs: jobs, console: &console)
      Self.reportRecording(score, folder: recording.folder, profile: fitted, options, console: &console)
    }
    if let problem = AtomicFile.write(Array(fitted.json()) + [0x0A], to: output) {
      console.err("Error: \(problem)")
      return 1
    }
    console.out("Wrote \(output) (use it with --profile \(output))")
    return status
  }

  /// Fewer images of a colour than this draw a warning from `calibrate`.
  static let fewestPerColour = 10

  /// Prints the held-out accuracy of each partition into folds and, for several, their mean.
  private func crossValidate(
    _ calibrator: Calibrator, _ prepared: [Calibrator.PreparedSet], _ options: Options, jobs: Int,
    console: inout Console
  ) {
    let heading =
      switch options.split {
      case .blocks:
        "Cross-validation (\(options.folds) folds in contiguous blocks, fitted on the others, read on the held-out fold)"
      case .interleaved:
        "Cross-validation (\(options.folds) interleaved folds, fitted on the others, read on the held-out fold)"
      case .folders:
        "Cross-validation (leave one folder out: each folder read by a profile fitted on the others)"
      }
    var runs: [[Confusion]] = []
    for partition in 0..<options.partitions {
      let split: Calibrator.Split =
        switch options.split {
        case .blocks: .blocks(folds: options.folds)
        case .interleaved: .interleaved(folds: options.folds, partition: partition)
        case .folders: .leaveOneSetOut
        }
      let held = calibrator.crossValidate(prepared, split: split, jobs: jobs)
      runs.append(held)
      console.out(options.partitions == 1 ? "\(heading):" : "\(heading), partition \(partition + 1):")
      for (set, confusion) in zip(prepared, held) { console.out("  \(set.name): \(Self.summary(confusion))") }
    }
    guard runs.count > 1 else { return }
    console.out("Mean over the \(runs.count) partitions:")
    for (s, set) in prepared.enumerated() {
      let confusions = runs.map { $0[s] }
      let correct = confusions.map(\.correct)
      let labelled = confusions[0].labelled
      let mean = labelled > 0 ? Double(correct.reduce(0, +)) / Double(labelled * runs.count) : 0
      let worst = confusions.map(\.redCalledGreen).max()!
      console.out(
        "  \(set.name): accuracy \(Self.percent(mean, places: 2)) (\(correct.map(String.init).joined(separator: ", ")) of "
          + "\(labelled)), red read as green at most \(worst)")
    }
  }

  /// A misread image, for people: what it is, what it was read as, and how.
  static func text(_ miss: Evaluator.Miss) -> String {
    let how = miss.decidedBy.map { "by \($0)" }
    return "\(miss.image.path): \(miss.image.truth.rawValue) read \(miss.read.rawValue)"
      + (how.map { " (\($0))" } ?? "")
  }

  static func json(_ miss: Evaluator.Miss) -> JSONLine {
    var line = JSONLine()
    line.add("path", miss.image.path)
    line.add("label", miss.image.truth.rawValue)
    line.add("read", miss.read.rawValue)
    if let rule = miss.decidedBy { line.add("decidedBy", rule) }
    return line
  }

  /// The confidence thresholds `evaluate` reports accuracy against coverage at.
  static let thresholds = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]

  /// Accuracy against coverage, for people choosing a profile's `minimumConfidence`.
  static func table(_ coverage: [Evaluator.Report.Coverage]) -> String {
    // With images labelled unknown, a column for how many of them a colour is named on.
    let unlit = coverage.contains { $0.unlitNamed != nil }
    var lines = ["answering only readings at least this confident (a profile's minimumConfidence):"]
    lines.append("  confidence  answered  right   red read as green" + (unlit ? "  unknown ones named" : ""))
    for point in coverage {
      let counts = padded(String(point.redCalledGreen), to: unlit ? 17 : 0)
      lines.append(
        "  " + padded(String(format: "%.1f", point.minimumConfidence), to: 10) + "  "
          + padded(percent(point.answered), to: 8) + "  " + padded(percent(point.accuracy), to: 6) + "  "
          + (unlit ? counts + "  " + percent(point.unlitNamed ?? 0) : counts))
    }
    return lines.joined(separator: "\n")
  }

  static func summary(_ confusion: Confusion) -> String {
    "accuracy \(percent(confusion.accuracy)) (\(confusion.correct) of \(confusion.labelled)), "
      + "red read as green \(confusion.redCalledGreen)"
  }

  /// `share` as a percentage rounded to `places` decimals, printed as Swift prints a
  /// `Double` (99.75%, 99.7%, 100.0%).
  static func percent(_ share: Double, places: Int = 1) -> String {
    let scale = (0..<places).reduce(1.0) { power, _ in power * 10 }
    return "\((share * (100 * scale)).rounded() / scale)%"
  }

  static func report(_ confusion: Confusion, folder: String, profile: String, images: Int) -> String {
    let colors = SignalColor.allCases
    var lines = [
      "\(folder): profile \(profile), \(images) images, \(confusion.labelled) labelled red, yellow or green"
    ]
    lines.append(padded("label \\ read", to: 14) + colors.map { padded($0.rawValue, to: 9) }.joined())
    for truth in colors where (confusion.counts[truth]?.values.reduce(0, +) ?? 0) > 0 {
      lines.append(
        padded(truth.rawValue, to: 14)
          + colors.map { padded(String(confusion.count(truth: truth, read: $0)), to: 9) }.joined())
    }
    lines.append(
      "accuracy: \(percent(confusion.accuracy)) (\(confusion.correct) of \(confusion.labelled) lit)")
    if confusion.total > confusion.labelled {
      lines.append("agreement with every label, unknown included: \(percent(confusion.agreement))")
    }
    let recalls = SignalColor.byRestrictiveness.compactMap { color in
      confusion.recall(color).map { "\(color.rawValue) \(percent($0))" }
    }
    lines.append("recall: " + recalls.joined(separator: ", "))
    lines.append("red read as green: \(confusion.redCalledGreen)")
    return lines.joined(separator: "\n").replacingOccurrences(
      of: " +\n", with: "\n", options: .regularExpression)
  }

  static func json(_ confusion: Confusion, folder: String, profile: String) -> JSONLine {
    var line = JSONLine()
    line.add("folder", folder)
    line.add("profile", profile)
    line.add("labelled", confusion.labelled)
    line.add("correct", confusion.correct)
    line.add("accuracy", confusion.accuracy)
    line.add("images", confusion.total)
    line.add("agreement", confusion.agreement)
    var recall = JSONLine()
    for color in SignalColor.byRestrictiveness {
      if let share = confusion.recall(color) { recall.add(color.rawValue, share) }
    }
    line.add("recall", object: recall)
    line.add("redCalledGreen", confusion.redCalledGreen)
    var matrix = JSONLine()
    for truth in SignalColor.allCases where (confusion.counts[truth]?.values.reduce(0, +) ?? 0) > 0 {
      var row = JSONLine()
      for read in SignalColor.allCases { row.add(read.rawValue, confusion.count(truth: truth, read: read)) }
      matrix.add(truth.rawValue, object: row)
    }
    line.add("confusion", object: matrix)
    return line
  }
}

/// What a labelled folder holds, for `evaluate`: labelled crops (`red/`, `yellow/`, `green/`,
/// `unknown/` or a `labels.csv` of `file,state`), boxed frames (`frames/` and `boxes.csv`), or
/// a labelled recording (`frames/` and a `labels.csv` with an `index` column).
enum FolderKind: String, CaseIterable {
  case crops, frames, recording

  /// How a message names it.
  var what: String {
    switch self {
    case .crops: "labelled crops"
    case .frames: "boxed frames (boxes.csv)"
    case .recording: "a labelled recording (frames/ and labels.csv with index)"
    }
  }

  /// How a message says the folder has none.
  var none: String {
    switch self {
    case .crops: "no labelled crops"
    case .frames: "no boxed frames (boxes.csv)"
    case .recording: "no labelled recording (frames/ and labels.csv with index)"
    }
  }

  /// The kinds `folder` holds, in the order of `allCases`.
  static func held(by folder: String) -> [FolderKind] {
    let files = FileManager.default
    func isFolder(_ name: String) -> Bool {
      var folderFlag: ObjCBool = false
      return files.fileExists(
        atPath: (folder as NSString).appendingPathComponent(name), isDirectory: &folderFlag)
        && folderFlag.boolValue
    }
    let recording = LabelledRecording.isRecordingFolder(folder)
    let crops =
      ["red", "yellow", "green", "unknown"].contains(where: isFolder)
      || (!recording && files.fileExists(atPath: (folder as NSString).appendingPathComponent("labels.csv")))
    var kinds: [FolderKind] = []
    if crops { kinds.append(.crops) }
    if BoxedFrames.isBoxedFolder(folder) { kinds.append(.frames) }
    if recording { kinds.append(.recording) }
    return kinds
  }
}
