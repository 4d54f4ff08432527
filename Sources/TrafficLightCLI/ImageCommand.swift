import Foundation
import TrafficLight
import TrafficLightKernels

/// `classify` and `sequence`: read images, write one result per image (or box, or frame).
enum ImageCommand {
  static func usage(_ command: Subcommand) -> String {
    switch command {
    case .classify: "Usage: traffic-light classify [options] PATH..."
    case .sequence: "Usage: traffic-light sequence [options] DIR|VIDEO..."
    }
  }

  static let sharedOptions = """
      --format text|jsonl|csv  text: an aligned table (default); jsonl: one JSON object per
                               line; csv: comma-separated with a header row
      --profile NAME|FILE      seed (the article's thresholds), default (the lamp-first
                               rules), fitted (the light network), or a JSON profile
                               file (default: default)
      --sigma S                blur sigma in pixels, 0 for none (default: the profile's)
      --points N               rows of points along the light (default: the profile's:
                               7 for seed, 9 rows of 9 for default)
      --orientation auto|vertical|horizontal
                               the way the lamps run: the rows of points go down the
                               light (vertical) or across it (horizontal, lamps side by
                               side); auto tells them by the region's shape, wider than
                               tall being horizontal (default: the profile's; vertical
                               for seed and default). vertical or horizontal also makes
                               the light finder look for those heads only (in frames,
                               and in crops with default's litLamp locator)
      --roi X,Y,W,H            read only this rectangle of each image, in pixels (clipped)
      --labels DIR             YOLO boxes (class cx cy w h [score], normalised) in
                               DIR/NAME.txt for image NAME.jpg; each box of the chosen
                               class is read
      --boxes FILE             a detector's boxes, each read: a CSV of
                               file,xmin,ymin,xmax,ymax[,score] (pixels; a header may name
                               the columns in any order), or COCO results JSON (a list of
                               detections with file_name or image_id, bbox as x,y,w,h in
                               pixels, category_id, score; or an object with 'images' and
                               'annotations'). A file names its image by the last parts
                               of its absolute path: a.jpg, drive/a.jpg or /data/drive/a.jpg
                               name drive/a.jpg read in /data
      --label-class N          the box class to read (default: the traffic light, 9 in
                               YOLO files, 10 in COCO JSON)
      --min-box-score S        leave out boxes scoring under S, 0 to 1 (boxes with no
                               score are kept)
      --find-lights            search every image for lit traffic lights, as a frame (a
                               dashcam frame, a street photo); the image's colour is the
                               light that matters (the most confident, nearer lights
                               weighing more; the most restrictive colour among lights
                               equally sure); jsonl lists every light found.
                               The search is the profile's lamp finder (its litLamp
                               locator's; seed has none and uses default's), looking for
                               heads of both ways unless --orientation says one. By
                               default images over 320x320 pixels are searched so, and
                               smaller ones are read as the crop of one light
      --whole-image            read every image as the crop of one light, whatever its size
      --light-confidence C     keep only lights found at least C sure, 0 to 1 (default:
                               the profile finder's, 0.6 for seed and default; 'evaluate'
                               on frames with boxes shows what each above it keeps)
      --jobs N                 threads (default: one per core); results stay in order
      -o, --output FILE        write results to FILE instead of stdout, atomically: FILE is
                               replaced only by a complete file
      --mask DIR               write a PNG per image (per box) of the classified crop into
                               DIR: red, yellow, green, black for none, sample points ringed
                               in white; with --find-lights, the frame with each light found
                               outlined in its colour and labelled with its confidence
      --review DIR             write DIR/index.html, a page to check the run by eye, with
                               thumbnails in DIR/thumbs (lights found and boxes read
                               outlined in the colour read): for
                               classify, every image, unknowns and the least confident
                               first; for sequence, each recording's timeline, each change
                               with the frames around it, the states the smoothing kept
                               out and the stretches it was unsure of
      --mask-format png|jpeg   the masks' file type (default png; jpeg is smaller and
                               several times faster to write for whole frames)
      --lenient                accept JPEGs whose data is damaged (truncated, corrupt
                               segments: libjpeg fills the gaps with grey) and note the
                               damage; by default they are errors
      -v, --verbose            name every file skipped in a folder (README, labels, hidden
                               files); by default one note counts them
      --ignore-exif-orientation
                               read pixels as stored; by default an image is turned as
                               its EXIF orientation tag says (phone photos), as viewers
                               show it, and --roi is in the turned image's pixels
      --max-pixels N           refuse images whose header claims more pixels (default 100M;
                               K, M, G suffixes)
      --max-file-size N        refuse files larger than N bytes (default 256M; K, M, G are
                               KiB, MiB, GiB)
      --max-memory N           memory the images being read share, in bytes (K, M, G are
                               KiB, MiB, GiB; default half the machine's or container's
                               memory): a worker waits until its image's estimate fits, and
                               an image that needs more than all of it is an error
      --max-errors N           stop after N inputs have failed (exit 1)
      --shard K/N              read only shard K of N (K from 0 to N-1): run N of these, on
                               N machines if you like, with the same paths, and together
                               they read every input once (by file for classify, by DIR
                               for sequence; the split depends on the paths alone)
      --files-from FILE        also read the paths listed in FILE (- for standard input),
                               one a line, or NUL-separated when the file holds a NUL
      -h, --help               show this help
    """

  static func help(_ command: Subcommand) -> String {
    switch command {
    case .classify:
      """
      Reads the colour of the traffic light in each still image.

      \(usage(.classify))

      A PATH is an image file (JPEG or PNG, recognised by content) or a folder, whose image
      files (.jpg, .jpeg, .png, any case) are read in natural order (frame_2 before
      frame_10), subfolders included. Other files in folders are skipped with a note on
      stderr; a folder that gives no image at all is an error.

      Options:
      \(sharedOptions)

      Each result has the path, the colour (red, yellow, green or unknown) and the points
      per colour; an image that cannot be read gives its path and the error instead.
      Exit status: 0 every image read, 1 some input failed or a folder held no image (the
      rest are still reported), 64 bad usage.

      """
    case .sequence:
      """
      Reads the frames of each DIR, in natural order, as one sequence (a recording): each
      frame's own colour and the colour smoothed over time within its recording. jsonl
      records carry their "recording" (the DIR as given).

      \(usage(.sequence))

      Options:
      \(sharedOptions)
        --smoothing offline|online|vote
                                 offline (the default profile's): the most likely states
                                 of the light over the whole recording, each change on the
                                 frame where it happened; online: the same model forward
                                 only, each frame decided --delay frames late, for frames
                                 that arrive live; vote: the article's majority vote over
                                 the last --window frames (the seed profile's)
        --window N|Ts            frames in the vote, the current one included (default 10),
                                 or T seconds with --fps; implies --smoothing vote
        --delay N|Ts             frames (or seconds, with --fps) an online frame is decided
                                 after it arrives (default 2); implies --smoothing online
        --fps F                  frames per second: state changes also get a time, and
                                 flashing lights are told by their period in seconds
        --events                 with --format jsonl, add a record for each change of the
                                 smoothed colour: {"event":"change","frame":...,"path":...,
                                 "from":...,"to":...,"confidence":...} ("flashing":true for
                                 a flashing light), and for each colour shown on 2 or more
                                 frames in a row that the smoothing kept out:
                                 {"event":"suppressed","frame":...,"lastFrame":...,
                                 "path":...,"color":...}
        --mask-changes           with --mask, write masks only for the frames the smoothed
                                 colour changed on (read again once decided)
        --timeline FILE.svg      draw each frame's colour and the smoothed colour along the
                                 frame axis, with the state changes marked (one DIR)

      In text and csv the state changes are summarised on stderr; a flashing light's smoothed
      colour is marked (yellow* in text, "yellow flashing" in csv, "flashing":true in jsonl).
      A frame that cannot be read, or (with --labels or --boxes) has no box, says
      nothing of the light (the vote counts it unknown); with several boxes, the largest
      drives the smoothing. Exit status as for classify.

      """
    }
  }

  /// Runs `command`; returns the exit status.
  static func run(
    _ command: Subcommand, _ options: CommandOptions, console: inout Console
  ) throws(CommandError) -> Int32 {
    let profile = try options.resolvedProfile()
    var operands = options.paths
    for list in options.filesFrom { operands += try readPathList(list) }
    // A sequence is one folder's own frames, a recording; classify walks subfolders too.
    let recursive = command != .sequence
    var items: [InputItem] = []
    /// The images to read, each with its recording (its DIR) in a sequence.
    var inputs: [(path: String, recording: String?)] = []
    /// What is read, in order: runs of `inputs`, and videos (a recording each).
    var segments: [InputSegment] = []
    if recursive {
      items = InputCollector.collect(operands)
      for case .image(let path) in items where options.shard.contains(path) { inputs.append((path, nil)) }
    } else {
      if options.timeline != nil && operands.count > 1 {
        throw CommandError("--timeline draws one recording: give one DIR, not \(operands.count)")
      }
      var named: [String: String] = [:]
      for folder in operands {
        guard FileManager.default.isDirectory(folder) else {
          // A file is a video: its frames are one recording, decoded by ffmpeg.
          guard FileManager.default.fileExists(atPath: folder) else {
            throw CommandError("\(folder): no such file or folder")
          }
          if options.mask != nil || options.labels != nil || options.boxes != nil || options.roi != nil {
            throw CommandError(
              "\(folder) is a video: --mask, --labels, --boxes and --roi read folders of frames "
                + "(extract them with ffmpeg)")
          }
          if let real = realPath(folder) {
            if let earlier = named[real] {
              throw CommandError("\(folder) is \(earlier) again: each recording is named once")
            }
            named[real] = folder
          }
          continue
        }
        // One recording under two names would be read twice, as two recordings.
        if let real = realPath(folder) {
          if let earlier = named[real] {
            throw CommandError("\(folder) is \(earlier) again: each recording is named once")
          }
          named[real] = folder
        }
      }
      for folder in operands where options.shard.contains(folder) {
        guard FileManager.default.isDirectory(folder) else {
          segments.append(.video(folder))
          continue
        }
        let found = InputCollector.collect([folder], recursive: false)
        items += found
        let start = inputs.count
        for case .image(let path) in found { inputs.append((path, folder)) }
        segments.append(.files(start..<inputs.count))
      }
    }
    let images = inputs.map(\.path)
    var finder = profile.frameFinder(heads: options.orientation ?? .auto)
    finder.minimumConfidence = options.lightConfidence ?? finder.minimumConfidence
    var regions =
      options.readsWhole
      ? RegionSource.wholeImage : .framesOrCrops(finder, largestCrop: RegionSource.largestCrop)
    if let roi = options.roi { regions = .fixed(roi) }
    if let labels = options.labels {
      guard FileManager.default.isDirectory(labels) else {
        throw CommandError("--labels: \(labels) is not a folder")
      }
      regions = .labels(
        folder: labels, classID: options.labelClass ?? YOLOLabels.trafficLightClass,
        minimumScore: options.minBoxScore)
    }
    var boxFaults = 0
    if let file = options.boxes {
      let table: DetectorBoxes
      do {
        table = try DetectorBoxes.load(
          file, category: options.labelClass ?? DetectorBoxes.cocoTrafficLight,
          minimumScore: options.minBoxScore)
      } catch {
        throw CommandError("--boxes: \(error.description)")
      }
      regions = .boxes(table)
      // Entries that name no image cannot be any image's error: said here, and the run fails.
      for fault in table.unplaced.prefix(10) { console.err("Error: \(terminalSafe(fault.description))") }
      if table.unplaced.count > 10 {
        console.err("Error: \(table.unplaced.count - 10) more like these in \(terminalSafe(file))")
      }
      boxFaults = table.unplaced.count
      // A name that matches no input is most often a path written another way: said once.
      let unmatched = options.shard == .all ? table.namesMatchingNone(of: images) : []
      if let first = unmatched.first {
        console.err(
          "Warning: \(terminalSafe(file)): \(unmatched.count) of the \(table.names.count) images it names "
            + "\(unmatched.count == 1 ? "is" : "are") not among the images read (\(terminalSafe(first)))")
      }
    }
    if options.findsLights { regions = .foundLights(finder) }
    try refuseOverwritingInputs(options, images: images)
    if let mask = options.mask, !FileSystemPath.makeFolders(mask) {
      throw CommandError.io(
        "--mask: cannot create folder \(terminalSafe(mask)): \(String(cString: strerror(errno)))")
    }
    let maskNames = options.mask.map { MaskNames.assign(images, in: $0) }
    try refuseCollidingOutputs(options, maskNames: maskNames ?? [])
    let review = try options.review.map { folder throws(CommandError) in try ReviewPage(folder: folder) }
    if let output = options.output { console.file = try AtomicFile(path: output) }
    // The timeline's file is made now, so that a path it cannot be written to is said before
    // any frame is read, not after all of them.
    let timelineFile: AtomicFile?
    do {
      timelineFile = try options.timeline.map { path throws(CommandError) in try AtomicFile(path: path) }
    } catch {
      console.file?.discard()
      throw error
    }

    let decoder = ImageDecoder(
      maxPixels: options.maxPixels, maxFileBytes: options.maxFileBytes, acceptsDamagedData: options.lenient,
      appliesOrientation: !options.ignoresExifOrientation)
    let reader = ImageReader(
      decoder: decoder, pipeline: FramePipeline(profile: profile), regions: regions,
      keepingMaps: options.mask != nil && !options.maskChanges,
      budget: MemoryBudget(bytes: options.maxMemory ?? MemoryBudget.defaultBytes))
    // With --mask-changes, the frames a change happened on are read again, keeping maps, once
    // the smoother has decided them: the workers draw no masks.
    let maskReader =
      options.maskChanges
      ? ImageReader(
        decoder: decoder, pipeline: FramePipeline(profile: profile), regions: regions, keepingMaps: true,
        budget: reader.budget) : nil
    let maskNameOf =
      options.maskChanges ? Dictionary(zip(images, maskNames ?? []), uniquingKeysWith: { a, _ in a }) : [:]
    // The one place the kind of run is decided: a sequence feeds each recording's frames
    // to a vote of its own.
    let isSequence = command == .sequence
    let smoothing = options.resolvedSmoothing(over: profile.smoothing)
    let formatter = ReportFormatter(
      format: options.format, isSequence: isSequence, showsRecordings: isSequence && operands.count > 1,
      // Capped: one very long path must not pad every row to its length.
      pathWidth: min(
        ReportFormatter.widestPath,
        segments.reduce(images.reduce(4) { max($0, terminalSafe($1).count) }) { widest, segment in
          // A video's frames are named VIDEO#N.
          guard case .video(let path) = segment else { return widest }
          return max(widest, terminalSafe(FileSystemPath.displayed(path)).count + 7)
        }),
      showsRegions: regions != .wholeImage, countsPoints: !profile.decider.readsPixels)
    if let header = formatter.header { console.out(header) }

    var failed = boxFaults > 0
    var failures = 0
    var stopped = false
    var sequence: SequenceClassifier? = nil
    var recording: String? = nil
    var colors: [SignalColor] = []
    var smoothed: [SignalColor] = []
    // Each recording's changes of the smoothed colour, with the file of the frame it changed on.
    var changes: [(recording: String, changes: [(change: StateChange, path: String)])] = []
    // The current recording's frames per second: --fps, or a video's own rate.
    var recordingFPS = options.fps
    var fpsOf: [String: Double] = [:]
    // Each recording's states the frames showed and the vote kept out (SuppressedState).
    var suppressedStates: [String: [SuppressedState]] = [:]
    /// Notes a suppressed state, with an event record when asked for.
    func noteSuppressed(_ state: SuppressedState, in recording: String) {
      suppressedStates[recording, default: []].append(state)
      review?.add(suppressed: state)
      guard options.events else { return }
      var event = JSONLine()
      event.add("event", "suppressed")
      event.add("recording", recording)
      event.add("frame", state.frames.lowerBound)
      event.add("lastFrame", state.frames.upperBound)
      event.add("path", FileSystemPath.displayed(state.path))
      if let fps = recordingFPS { event.add("time", Double(state.frames.lowerBound) / fps) }
      event.add("color", state.color.rawValue)
      console.out(event.closed)
    }
    /// Writes a decided frame: its rows, its change, the state it ended that was kept out.
    func emit(_ step: SequenceStep, in recording: String) {
      colors.append(step.color)
      smoothed.append(step.smoothed)
      if let change = step.change { changes[changes.count - 1].changes.append((change, step.reading.path)) }
      if step.change != nil, let maskReader, let name = maskNameOf[step.reading.path] {
        let problems = maskReader.read(step.reading.path, reservingPerPixel: 8) { reading in
          writeMasks(of: reading, named: name, as: options.maskFormat)
        }
        for problem in problems {
          console.err("Error: \(problem)")
          failed = true
        }
      }
      for (n, var row) in rows(for: step.reading, step: step, options, formatter).enumerated() {
        row.recording = recording
        row.flashing = step.flashing
        console.out(formatter.line(row))
        if n == 0 { review?.add(step: step, row: row) }
      }
      if options.events, let change = step.change {
        var event = JSONLine()
        event.add("event", "change")
        event.add("recording", recording)
        event.add("frame", change.frame)
        event.add("path", FileSystemPath.displayed(step.reading.path))
        if let fps = recordingFPS { event.add("time", Double(change.frame) / fps) }
        event.add("from", change.from.rawValue)
        event.add("to", change.to.rawValue)
        if change.flashing { event.add("flashing", true) }
        // The vote's records stay as the article's tool wrote them.
        if smoothing.kind != .vote, let confidence = change.confidence {
          event.add("confidence", (confidence * 1000).rounded() / 1000)
        }
        console.out(event.closed)
      }
      if let state = step.suppressed { noteSuppressed(state, in: recording) }
    }
    /// Ends the current recording: the frames the smoother still held, and a state its last
    /// frames showed that the smoothed colour never took.
    func finishRecording() {
      guard let last = recording, var finishing = sequence else { return }
      let (steps, state) = finishing.finish()
      for step in steps { emit(step, in: last) }
      if let state { noteSuppressed(state, in: last) }
      sequence = nil
    }
    var progress = Progress(total: images.count)
    let jobs = options.jobs ?? ProcessInfo.processInfo.activeProcessorCount
    // Files passed over in folders as a matter of course (a README, labels, hidden files) are
    // counted in one note; --verbose names each. Anything else skipped is always named.
    var routine: [String: Int] = [:]
    for item in items {
      switch item {
      case .image: break
      case .skipped(let path, let reason):
        if !options.verbose, let kind = Self.routineSkip(reason) {
          routine[kind, default: 0] += 1
        } else {
          console.err("Note: skipped \(terminalSafe(path)): \(reason)")
        }
      case .emptyFolder(let path):
        let whereNot = recursive ? "in it or its subfolders" : "in it"
        console.err("Error: \(terminalSafe(path)): no .jpg, .jpeg or .png file \(whereNot)")
        failed = true
      }
    }
    if !routine.isEmpty {
      let counts = routine.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
      console.err("Note: skipped \(counts.joined(separator: ", ")) (--verbose names them)")
    }
    /// Takes one reading, in order: its notes, its rows (or its frame's, in a sequence);
    /// false when the run must stop.
    func take(_ reading: ImageReading, problems: [String], index: Int?, recording frameRecording: String?)
      -> Bool
    {
      if let damage = reading.damage {
        console.err("Note: \(reading.path): damaged data accepted (--lenient): \(damage)")
      }
      if let roi = options.roi, case .success(let regions) = reading.outcome,
        regions.first?.result.region == nil
      {
        console.err(
          "Note: \(reading.path): --roi \(ReportFormatter.describe(roi)) lies outside the image: read as unknown"
        )
      }
      for problem in problems {
        console.err("Error: \(problem)")
        failed = true
      }
      if let index, let maskNames, let mask = options.mask,
        maskNames[index] != MaskNames.plain(reading.path, in: mask)
      {
        console.err(
          "Note: \(terminalSafe(reading.path)): mask written as "
            + "\(terminalSafe(maskNames[index])).\(options.maskFormat.fileExtension) "
            + "(an earlier input has the same file name)")
      }
      if let frameRecording {
        if frameRecording != recording {
          finishRecording()
          recording = frameRecording
          fpsOf[frameRecording] = recordingFPS
          review?.startRecording(frameRecording, fps: recordingFPS)
          sequence = SequenceClassifier(smoothing: smoothing, fps: recordingFPS)
          changes.append((frameRecording, []))
        }
        // Held until the smoother decides the frame (kept without maps or points).
        for step in sequence?.feed(reading) ?? [] { emit(step, in: frameRecording) }
      } else {
        for row in rows(for: reading, step: nil, options, formatter) {
          console.out(formatter.line(row))
          review?.add(image: row)
        }
      }
      if case .failure = reading.outcome {
        failed = true
        failures += 1
        if let limit = options.maxErrors, failures >= limit {
          stopped = true
          console.err("Error: stopped after \(failures) failed inputs (--max-errors \(limit))")
        }
      }
      // A reader that went away, or an output that cannot be written, ends the run.
      return !stopped && !console.outputClosed && console.outputError == nil
    }
    // Workers read ahead of the output by at most 64 inputs per thread: memory stays flat
    // over any number of frames, and results come out in input order.
    for (segment, part) in (recursive ? [.files(0..<images.count)] : segments).enumerated() {
      guard !stopped && !console.outputClosed && console.outputError == nil else { break }
      switch part {
      case .files(let range):
        OrderedParallelMap.stream(count: range.count, jobs: jobs, window: 64 * jobs) {
          offset -> (ImageReading, [String]) in
          let i = range.lowerBound + offset
          // The masks are drawn and encoded inside the reading's share of --max-memory (about
          // 8 bytes a pixel); what is kept for the output has no maps, pictures or points.
          return reader.read(images[i], reservingPerPixel: maskNames == nil || options.maskChanges ? 0 : 8) {
            reading in
            let masks =
              options.maskChanges
              ? [] : maskNames.map { writeMasks(of: reading, named: $0[i], as: options.maskFormat) } ?? []
            let thumbnail = ReviewPage.writeThumbnail(
              of: reading, folder: options.review, name: ReviewPage.thumbnailName(segment: 0, index: i)
            ) { try? decoder.decode(fileAt: images[i]).pixels }
            return (reading.forKeeping(), masks + thumbnail)
          }
        } consume: { offset, outcome in
          let index = range.lowerBound + offset
          recordingFPS = options.fps
          review?.noteThumbnail(ReviewPage.thumbnailName(segment: 0, index: index), for: outcome.0)
          let going = take(outcome.0, problems: outcome.1, index: index, recording: inputs[index].recording)
          progress.update(done: index + 1)
          return going
        }
      case .video(let path):
        let video: VideoFrames
        do throws(VideoError) {
          video = try VideoFrames(path: path, fps: options.fps, maxFrameBytes: options.maxFileBytes)
        } catch {
          console.err("Error: \(terminalSafe(error.description))")
          failed = true
          continue
        }
        recordingFPS = video.fps
        let name = FileSystemPath.displayed(path)
        OrderedParallelMap.stream(count: Int.max, jobs: jobs, window: 4 * jobs) {
          i -> (ImageReading, [String])? in
          guard let bytes = video.frame(i) else { return nil }
          return reader.read(bytes: bytes, name: "\(name)#\(i)") { reading in
            let problems = ReviewPage.writeThumbnail(
              of: reading, folder: options.review, name: ReviewPage.thumbnailName(segment: segment, index: i)
            ) { try? decoder.decode(bytes, name: reading.path).pixels }
            return (reading.forKeeping(), problems)
          }
        } consume: { i, outcome in
          guard let (reading, problems) = outcome else { return false }
          review?.noteThumbnail(ReviewPage.thumbnailName(segment: segment, index: i), for: reading)
          return take(reading, problems: problems, index: nil, recording: path)
        }
        if let problem = video.close() {
          console.err("Error: \(terminalSafe(problem.description))")
          failed = true
        } else if recording != path {
          console.err("Error: \(terminalSafe(path)): the video has no frame")
          failed = true
        }
      }
    }
    progress.finish()
    finishRecording()

    if isSequence && options.format != .jsonl {
      for (name, found) in changes {
        console.err(
          summary(
            found, suppressed: suppressedStates[name] ?? [], fps: fpsOf[name], by: smoothing.kind,
            recording: operands.count > 1 ? name : nil))
      }
    }
    if let timelineFile {
      let svg = Array(SequenceTimeline.svg(colors: colors, smoothed: smoothed, fps: recordingFPS).utf8)
      let problem =
        svg.withUnsafeBytes { timelineFile.write($0) }
        ? timelineFile.commit() : "cannot write \(timelineFile.path): \(String(cString: strerror(errno)))"
      if let problem {
        timelineFile.discard()
        console.err("Error: \(problem)")
        failed = true
      }
    }
    if let review, let problem = review.write(command: "traffic-light \(command.rawValue)") {
      console.err("Error: \(problem)")
      failed = true
    }
    console.flush()
    if let file = console.file {
      if let problem = console.fileError ?? file.commit() {
        file.discard()
        console.err("Error: \(problem)")
        failed = true
      }
    }
    return failed ? 1 : 0
  }

  /// The result rows of one input: its error; in a sequence, the frame (driven by its
  /// largest box, with every box listed in jsonl); otherwise one row per region read.
  private static func rows(
    for reading: ImageReading, step: SequenceStep?, _ options: CommandOptions, _ formatter: ReportFormatter
  ) -> [ResultRow] {
    let noBox =
      (options.boxes != nil
        ? "no box in \(options.boxes!)"
        : "no box of class \(options.labelClass ?? YOLOLabels.trafficLightClass)")
      + (options.minBoxScore.map { " scoring at least \($0)" } ?? "")
    let (frame, smoothed) = (step?.frame, step?.smoothed)
    // How the image was read, said on every row.
    let read =
      reading.searchedForLights
      ? "frame"
      : options.labels != nil || options.boxes != nil ? "box" : options.roi != nil ? "region" : "crop"
    /// A row of `result`: its colour, confidence, what named it, its points when it counted
    /// any, and why it names no colour.
    func row(_ result: FrameResult, region: PixelRegion?) -> ResultRow {
      var row = ResultRow(
        path: reading.path, read: read, frame: frame, region: read == "crop" ? nil : region,
        color: result.color,
        counts: result.counts, decidedBy: result.decision.decidedBy, confidence: result.decision.confidence,
        smoothed: smoothed, damage: reading.damage, evidence: result.light)
      row.hasCounts = formatter.countsPoints && result.decision.decidedBy != LightDecision.litLamp
      row.note = result.region == nil && read == "region" ? "outside the image" : result.decision.whyUnknown
      return row
    }
    switch reading.outcome {
    case .failure(let error):
      return [ResultRow(path: reading.path, frame: frame, smoothed: smoothed, error: error.reason)]
    case .success(let regions) where reading.searchedForLights:
      let lights = regions.compactMap(\.light)
      // In a sequence, the light followed from frame to frame; else the light that matters.
      let chosen = step?.light ?? reading.primary?.light
      guard let chosen, let region = regions.first(where: { $0.light == chosen }) ?? reading.primary else {
        var none = ResultRow(
          path: reading.path, read: read, frame: frame, color: .unknown, smoothed: smoothed,
          note: "no light found", damage: reading.damage, lights: lights)
        none.hasCounts = false
        return [none]
      }
      var found = row(region.result, region: chosen.box)
      found.evidence = nil
      found.lights = lights
      let count = lights.count == 1 ? "1 light found" : "\(lights.count) lights found"
      found.note = [count, found.note].compactMap { $0 }.joined(separator: "; ")
      return [found]
    case .success(let regions) where step != nil:
      guard let primary = reading.primary else {
        return [
          ResultRow(
            path: reading.path, read: read, frame: frame, color: .unknown, smoothed: smoothed, note: noBox,
            damage: reading.damage)
        ]
      }
      var framed = row(primary.result, region: formatter.showsRegions ? primary.result.region : nil)
      if options.labels != nil || options.boxes != nil { framed.boxes = regions }
      return [framed]
    case .success(let regions) where regions.isEmpty:
      return [ResultRow(path: reading.path, read: read, color: .unknown, note: noBox, damage: reading.damage)]
    case .success(let regions):
      return regions.map { region in
        row(region.result, region: formatter.showsRegions ? region.result.region : nil)
      }
    }
  }

  /// Writes the mask of each region of `reading` as `name.png` or `name.jpg` (`name-boxN.png`
  /// when there are several), in `format`; returns what could not be written.
  private static func writeMasks(of reading: ImageReading, named name: String, as format: MaskFormat)
    -> [String]
  {
    let ext = "." + format.fileExtension
    func encoded(_ picture: RGBImage) throws(EncodeError) -> [UInt8] {
      format == .png ? try ImageEncoder.png(picture) : try ImageEncoder.jpeg(picture, quality: 90)
    }
    guard case .success(let regions) = reading.outcome else { return [] }
    var problems: [String] = []
    if let picture = reading.picture {
      do {
        if let problem = AtomicFile.write(
          try encoded(picture), to: name + ext, followingLinks: false)
        {
          problems.append(problem)
        }
      } catch {
        problems.append("cannot write \(name)\(ext): \(error)")
      }
      return problems
    }
    for (box, region) in regions.enumerated() {
      guard let map = region.result.map else { continue }
      let file = name + (regions.count > 1 ? "-box\(box + 1)" : "") + ext
      do {
        let png = try encoded(ClassMask.render(map, samples: region.result.decision.samples))
        if let problem = AtomicFile.write(png, to: file, followingLinks: false) { problems.append(problem) }
      } catch {
        problems.append("cannot write \(file): \(error)")
      }
    }
    return problems
  }

  /// How a skip reason is counted in the one note, or nil for a reason always named.
  static func routineSkip(_ reason: String) -> String? {
    if reason.hasPrefix("not named like an image") { return "files not named like an image" }
    if reason == "hidden" { return "hidden files" }
    if reason.hasPrefix("a mask") { return "masks (*.mask.png, *.mask.jpg)" }
    if reason == "is a folder" { return "folders (a sequence reads one level)" }
    return nil
  }

  /// The state changes, for people; `recording` names the DIR when there are several.
  static func summary(
    _ changes: [(change: StateChange, path: String)], suppressed: [SuppressedState] = [], fps: Double?,
    by kind: Smoothing.Kind = .vote, recording: String? = nil
  ) -> String {
    // Frames count from 0 in the order read (ffmpeg numbers the files it writes from 1): the
    // heading says so, and each line names the file a person opens.
    let heading =
      "State changes" + (recording.map { " in \(terminalSafe($0))" } ?? "")
      + " (frames count from 0, in the order read):"
    guard !changes.isEmpty || !suppressed.isEmpty else {
      return "State changes" + (recording.map { " in \(terminalSafe($0))" } ?? "")
        + ": none (the smoothed colour stayed unknown)"
    }
    // Changes and states kept out, in frame order.
    var lines: [(frame: Int, text: String)] = []
    for (change, path) in changes {
      var when = "frame \(change.frame)"
      if let fps {
        let seconds = (Double(change.frame) / fps * 100).rounded() / 100
        when += " (\(seconds) s)"
      }
      let to = change.to.rawValue + (change.flashing ? " (flashing)" : "")
      lines.append((change.frame, "  \(when), \(terminalSafe(path)): \(change.from.rawValue) -> \(to)"))
    }
    for state in suppressed {
      lines.append(
        (
          state.frames.lowerBound,
          "  frames \(state.frames.lowerBound)-\(state.frames.upperBound), \(terminalSafe(state.path)): "
            + "\(state.color.rawValue) on \(state.frames.count) frames, kept out by the \(kind == .vote ? "vote" : "smoothing")"
        ))
    }
    // A stable sort: a change and a state kept out on one frame stay in that order.
    let ordered = lines.enumerated().sorted { a, b in
      a.element.frame != b.element.frame ? a.element.frame < b.element.frame : a.offset < b.offset
    }
    return ([heading] + ordered.map(\.element.text)).joined(separator: "\n")
  }

  /// The paths listed in `list` (`-` for standard input): see `PathList`.
  private static func readPathList(_ list: String) throws(CommandError) -> [String] {
    if list == "-" { return PathList.parse(Array(FileHandle.standardInput.readDataToEndOfFile())) }
    do throws(DecodeError) {
      return PathList.parse(try FileReader.readAll(list, maxBytes: 1 << 30))
    } catch {
      throw CommandError.io("--files-from: cannot read \(terminalSafe(list)): \(error.reason)")
    }
  }

  /// Refuses outputs that would land on one another: `--output` and `--timeline` on one
  /// path, or either on a mask's name; one of them would be lost.
  private static func refuseCollidingOutputs(_ options: CommandOptions, maskNames: [String])
    throws(CommandError)
  {
    let output = options.output.map(absolute)
    let timeline = options.timeline.map(absolute)
    if let output, output == timeline {
      throw CommandError("--output and --timeline are the same file, \(options.output!): one would be lost")
    }
    let masks = maskNames.map(absolute)
    let ext = "." + options.maskFormat.fileExtension
    for (option, path) in [("--output", output), ("--timeline", timeline)] {
      guard let path else { continue }
      if masks.contains(where: {
        path == $0 + ext || (path.hasPrefix($0 + "-box") && path.hasSuffix(ext))
      }) {
        throw CommandError("\(option) \(path) is the name of a mask: one would be lost")
      }
    }
  }

  /// `path` made absolute against the current folder, with `.` and `..` resolved.
  private static func absolute(_ path: String) -> String {
    let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    return (full as NSString).standardizingPath
  }

  /// Refuses an `--output` or `--timeline` that is one of the inputs, and a `--mask` folder
  /// holding an input named like a mask.
  private static func refuseOverwritingInputs(_ options: CommandOptions, images: [String])
    throws(CommandError)
  {
    // Only an output that exists already can be an input: the inputs' real paths (a call
    // each) are worked out only then.
    let maskFolder = options.mask.flatMap(realPath)
    guard
      maskFolder != nil
        || [options.output, options.timeline].contains(where: { $0.flatMap(realPath) != nil })
    else { return }
    let inputs = Set(images.compactMap(realPath))
    if let mask = options.mask, let folder = maskFolder {
      for input in inputs
      where (input as NSString).deletingLastPathComponent == folder
        && ((input as NSString).lastPathComponent.hasSuffix(".png")
          || (input as NSString).lastPathComponent.hasSuffix(".jpg"))
        && (input as NSString).lastPathComponent.contains(".mask")
      {
        throw CommandError("--mask \(mask) holds the input \(input), which a mask could overwrite")
      }
    }
    try refuse([("--output", options.output), ("--timeline", options.timeline)], overwriting: inputs)
  }

  /// Refuses (a usage error) each output, named by its option, that resolves to one of
  /// `inputs` (real paths).
  static func refuse(_ outputs: [(option: String, path: String?)], overwriting inputs: Set<String>)
    throws(CommandError)
  {
    for (option, path) in outputs {
      if let path, let real = realPath(path), inputs.contains(real) {
        throw CommandError("\(option) \(path) is one of the inputs: refusing to overwrite it")
      }
    }
  }

  /// The absolute path `path` resolves to, links and `..` followed; nil when it does not exist.
  static func realPath(_ path: String) -> String? {
    guard let resolved = FileSystemPath.withCString(path, { realpath($0, nil) }) else { return nil }
    defer { free(resolved) }
    return FileSystemPath.string(
      fromBytes: UnsafeBufferPointer(
        start: UnsafeRawPointer(resolved).assumingMemoryBound(to: UInt8.self), count: strlen(resolved)))
  }
}

/// Mask file names: the input's file name without its extension, made unique.
enum MaskNames {
  /// For each image, the mask path without `.png`: `folder/NAME.mask`, else the first of
  /// `folder/NAME-2.mask`, `folder/NAME-3.mask`, ... that no earlier image took (an image
  /// named `a-2` after two named `a` takes `a-2-2`): every image gets a mask of its own.
  static func assign(_ images: [String], in folder: String) -> [String] {
    var taken = Set<String>()
    var next: [String: Int] = [:]
    return images.map { path in
      let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
      var count = next[stem, default: 1]
      var name = count == 1 ? stem : "\(stem)-\(count)"
      while taken.contains(name) {
        count += 1
        name = "\(stem)-\(count)"
      }
      next[stem] = count + 1
      taken.insert(name)
      return (folder as NSString).appendingPathComponent(name + ".mask")
    }
  }

  /// The name an image's mask takes when no other input shares its file name.
  static func plain(_ path: String, in folder: String) -> String {
    let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    return (folder as NSString).appendingPathComponent(stem + ".mask")
  }
}

extension FileManager {
  /// Whether `path` (bytes kept, see `FileSystemPath`) is a folder, following links.
  func isDirectory(_ path: String) -> Bool {
    var status = stat()
    return FileSystemPath.status(path, &status) && status.st_mode & S_IFMT == S_IFDIR
  }
}

/// A part of a run's inputs, read in order: a run of image files, or a video's frames.
enum InputSegment {
  case files(Range<Int>)
  case video(String)
}
