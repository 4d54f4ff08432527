import Foundation
import TrafficLightKernels

/// One scale of the search: the blurred pixels and each one's lamp colour.
package struct LampPlane {
  let width: Int
  let height: Int
  /// The blurred image the plane was made from.
  let pixels: RGBImage
  /// The patches of lamp-coloured pixels shaped like a lamp (`Patch.isLampShaped`).
  let lamps: [Patch]

  static let colors: [SignalColor] = [.red, .yellow, .green]

  /// The plane of `image` (blurred) whose pixels are of `classes`, one per pixel. Red and
  /// yellow pixels that touch are one warm patch when together they are shaped like a lamp
  /// (`isLampShaped`): an orange lamp reads yellow at its centre and red at its rim, and is
  /// one lamp, of the colour of its most saturated pixel, red when that pixel's hue is at most
  /// `warmSplit` degrees (from -180 to 180, or the same angle from 0 to 360) and yellow past
  /// it, as the warm split reads a crop. Where they are not (a red lamp in a yellow housing),
  /// each colour's patches are taken apart, as green's always are.
  init(_ image: RGBImage, classes: [PixelClass], warmSplit: Double, minimumArea: Int) {
    width = image.width
    height = image.height
    pixels = image
    let split = warmSplit > 180 ? warmSplit - 360 : warmSplit
    lamps = SeedStack.using { seeds in
      // The fill clears the map it reads: this copy is the plane's alone.
      var single = classes
      let patches = Self.patches(of: image, classes: &single, seeds: &seeds)
      let warm = Self.warmLamps(
        of: image, classes: classes, touching: patches, warmSplit: split, minimumArea: minimumArea,
        seeds: &seeds)
      // A warm lamp's pixels are not single-colour patches too; a single-colour patch lies
      // wholly inside a warm patch or outside every one.
      var inWarm: [Bool] = []
      if !warm.isEmpty {
        inWarm = [Bool](repeating: false, count: image.width * image.height)
        for (_, members) in warm {
          for i in members { inWarm[i] = true }
        }
      }
      var lamps = warm.map(\.patch)
      for taken in patches
      where (inWarm.isEmpty || !inWarm[taken.start])
        && taken.patch.isLampShaped(minimumArea: minimumArea, inWidth: image.width, height: image.height)
      {
        lamps.append(taken.patch)
      }
      return lamps
    }
  }

  /// The lamp-shaped warm patches of `image` (red and yellow patches of `classes` that touch,
  /// found where `patches`, as `patches(of:classes:seeds:)` took them, say so), with their
  /// pixels: in the order of their first red pixel beside a yellow one, as the image's rows
  /// run. Most planes have none.
  private static func warmLamps(
    of image: RGBImage, classes: [PixelClass], touching patches: [TakenPatch], warmSplit: Double,
    minimumArea: Int, seeds: inout SeedStack
  ) -> [(patch: Patch, members: [Int])] {
    guard patches.contains(where: \.touchesOtherWarm) else { return [] }
    var warm: [(first: Int, patch: Patch, members: [Int])] = []
    var warmMap = classes
    // Of two patches that touch, the one taken first saw the other: it is the one marked.
    for touching in patches where touching.touchesOtherWarm && warmMap[touching.start] != .none {
      guard
        let (patch, members) = Self.warmPatch(
          of: image, classes: &warmMap, from: touching.start, warmSplit: warmSplit, seeds: &seeds),
        patch.isLampShaped(minimumArea: minimumArea, inWidth: image.width, height: image.height)
      else { continue }
      let first = members.lazy.filter {
        Self.isRedBesideYellow($0, classes: classes, width: image.width, height: image.height)
      }.min()!
      warm.append((first, patch, members))
    }
    return warm.sorted { $0.first < $1.first }.map { ($0.patch, $0.members) }
  }

  /// The mean value (largest channel) and chroma (largest less smallest channel) of rows
  /// `y0..<y1` and columns `x0..<x1` clipped to the plane, or nil when nothing of it is
  /// inside: read from `table` (the plane's pixels summed) when given, else summed here.
  func means(x0: Int, x1: Int, y0: Int, y1: Int, table: SummedTable?) -> (value: Double, chroma: Double)? {
    let (x0, x1, y0, y1) = (max(0, x0), min(width, x1), max(0, y0), min(height, y1))
    guard x1 > x0, y1 > y0 else { return nil }
    let (value, chroma) = table?.sums(x0: x0, x1: x1, y0: y0, y1: y1) ?? sums(x0: x0, x1: x1, y0: y0, y1: y1)
    let count = Double((x1 - x0) * (y1 - y0))
    return (Double(value) / count, Double(chroma) / count)
  }

  /// The summed value and chroma of rows `y0..<y1` and columns `x0..<x1`, inside the plane,
  /// pixel by pixel.
  private func sums(x0: Int, x1: Int, y0: Int, y1: Int) -> (value: Int, chroma: Int) {
    let width = self.width
    return pixels.read { bytes in
      var (value, chroma) = (0, 0)
      for y in y0..<y1 {
        let row = summedValueAndChroma(of: bytes.baseAddress! + 3 * (y * width + x0), count: x1 - x0)
        (value, chroma) = (value + row.value, chroma + row.chroma)
      }
      return (value, chroma)
    }
  }

  /// How many pixels the candidates of this plane's lamps may ask for, at most: each asks
  /// for squares adding up to under 24 times its longer side squared, both ways of head
  /// together (its unlit lamps, the housing beside it and between the lamps, its surround).
  /// Its disjoint patch covers at least a fifth of that side squared, so a plane's asks add
  /// up to at most 120 times its pixels.
  var pixelsAsked: Int {
    lamps.reduce(0) { sum, lamp in
      let side = max(lamp.maxX - lamp.minX, lamp.maxY - lamp.minY) + 1
      return sum + 24 * side * side
    }
  }

  /// A connected patch of one lamp colour (4-connected), or a warm one of red and yellow.
  package struct Patch {
    package var color: SignalColor
    package var minX: Int, maxX: Int, minY: Int, maxY: Int
    package var area = 0
    package var valueSum = 0
    package var chromaSum = 0

    /// Whether it may be a lamp, by its shape alone: at least `minimumArea` pixels, its box
    /// no more than twice as long one way as the other, at least 0.4 of it filled, and its
    /// longer side no more than a third of the plane's (`width` x `height`) longer side.
    func isLampShaped(minimumArea: Int, inWidth width: Int, height: Int) -> Bool {
      let (bw, bh) = (maxX - minX + 1, maxY - minY + 1)
      return area >= minimumArea && bh * 2 >= bw && bw * 2 >= bh && Double(area) >= 0.4 * Double(bw * bh)
        && 3 * max(bw, bh) <= max(width, height)
    }
  }

  /// A patch as `patches(of:classes:seeds:)` takes it.
  package struct TakenPatch {
    /// The patch.
    package var patch: Patch
    /// Its first pixel, as the image's rows run.
    package var start: Int
    /// Whether it touched a pixel of the other warm colour not yet taken.
    package var touchesOtherWarm: Bool
  }

  /// Every patch of one lamp colour of `image`, by its `classes` (cleared as the patches are
  /// taken), in the order of their first pixels: with that pixel, and whether the patch
  /// touches a pixel of the other warm colour not yet taken (red beside yellow: of two such
  /// patches, the one taken first says so). `seeds` is working space, left empty.
  package static func patches(
    of image: RGBImage, classes: inout [PixelClass], seeds: inout SeedStack
  ) -> [TakenPatch] {
    var patches: [TakenPatch] = []
    // PixelClass is a UInt8 enum of the same codes (0 none, 1 red, 2 yellow, 3 green): its
    // array's bytes are the codes.
    classes.withUnsafeMutableBufferPointer { classes in
      classes.withMemoryRebound(to: UInt8.self) { codes in
        image.read { bytes in
          // The fill clears each patch's bytes as it takes them: the scan skips them.
          forEachNonZeroByte(in: UnsafeRawBufferPointer(codes)) { start in
            let code = codes[start]
            // Red watches for yellow, yellow for red.
            let filled = fill(
              codes.baseAddress!, bytes.baseAddress!, width: image.width, height: image.height, from: start,
              watching: code == 1 ? 2 : code == 2 ? 1 : 255, seeds: &seeds)
            patches.append(
              TakenPatch(patch: filled.patch, start: start, touchesOtherWarm: filled.touchesWatched))
          }
        }
      }
    }
    return patches
  }

  /// The 4-connected patch of the pixels whose code is `start`'s or `alsoJoining`, taken a
  /// row's run at a time, each pixel's code cleared as it is taken; with the pixels' indices
  /// when `keepingMembers`, the codes taken (bit c set for code c), and whether one of its
  /// pixels has a 4-neighbour whose code is `watching` (still in `codes`). The patch has the
  /// colour of `start`'s code. `pixels` are the image's bytes, three per pixel; `seeds` is
  /// working space, left empty. 255, no code, joins or watches nothing.
  ///
  /// Complexity: O(pixels of the patch and of the rows' runs either side of it).
  private static func fill(
    _ codes: UnsafeMutablePointer<UInt8>, _ pixels: UnsafePointer<UInt8>, width: Int, height: Int,
    from start: Int,
    alsoJoining other: UInt8 = 255, watching: UInt8 = 255, keepingMembers: Bool = false,
    seeds: inout SeedStack
  ) -> (patch: Patch, members: [Int], codesTaken: Int, touchesWatched: Bool) {
    let code = codes[start]
    let (startX, startY) = (start % width, start / width)
    var patch = Patch(color: colors[Int(code) - 1], minX: startX, maxX: startX, minY: startY, maxY: startY)
    var members: [Int] = []
    var (codesTaken, touches) = (0, false)
    @inline(__always) func joins(_ c: UInt8) -> Bool { c == code || c == other }
    // Eight bytes of `code` (a single code joined: runs are passed over eight at a time).
    let eight: UInt64? = other == 255 ? 0x0101_0101_0101_0101 &* UInt64(code) : nil
    // The last column from `x` (a joined pixel) on of the run holding it, up to `limit`.
    @inline(__always) func runEnd(_ row: UnsafeMutablePointer<UInt8>, from x: Int, limit: Int) -> Int {
      var x = x
      if let eight {
        while x + 8 <= limit, UnsafeRawPointer(row + x + 1).loadUnaligned(as: UInt64.self) == eight { x += 8 }
      }
      while x < limit && joins(row[x + 1]) { x += 1 }
      return x
    }
    // Seeds, two entries each: the pixel's row and column (y << 32 | x), and the run it was
    // seen from, in the row before it in its direction (x0 << 32 | x1 << 1, the low bit set
    // when that row lies below). No division per pixel.
    seeds.push(startY << 32 | startX, 1 << 32)
    // Pushes a seed for each run of joined codes in row `y`, columns `x0...x1`, seen from
    // the run `from` (`x0...x1` of the row before it in `direction`).
    @inline(__always) func seedRuns(
      y: Int, x0: Int, x1: Int, from: (x0: Int, x1: Int), direction: Int, seeds: inout SeedStack,
      touches: inout Bool
    ) {
      let row = codes + y * width
      var x = x0
      while x <= x1 {
        let c = row[x]
        if joins(c) {
          seeds.push(y << 32 | x, from.x0 << 32 | from.x1 << 1 | (direction < 0 ? 1 : 0))
          x = runEnd(row, from: x, limit: x1)
        } else {
          touches = touches || c == watching
        }
        x += 1
      }
    }
    while let (seed, seen) = seeds.pop() {
      let (x, y) = (seed & 0xFFFF_FFFF, seed >> 32)
      let direction = seen & 1 == 1 ? -1 : 1
      let parent = (x0: seen >> 32, x1: (seen & 0xFFFF_FFFF) >> 1)
      let row = codes + y * width
      guard joins(row[x]) else { continue }
      var x0 = x
      while x0 > 0 && joins(row[x0 - 1]) { x0 -= 1 }
      let x1 = runEnd(row, from: x, limit: width - 1)
      touches = touches || (x0 > 0 && row[x0 - 1] == watching) || (x1 + 1 < width && row[x1 + 1] == watching)
      if other == 255 {
        codesTaken |= 1 << Int(code)
      } else {
        for x in x0...x1 { codesTaken |= 1 << Int(row[x]) }
      }
      (row + x0).update(repeating: 0, count: x1 - x0 + 1)
      let sums = summedValueAndChroma(of: pixels + 3 * (y * width + x0), count: x1 - x0 + 1)
      patch.valueSum += sums.value
      patch.chromaSum += sums.chroma
      if keepingMembers { members += (y * width + x0)...(y * width + x1) }
      patch.area += x1 - x0 + 1
      patch.minX = min(patch.minX, x0)
      patch.maxX = max(patch.maxX, x1)
      patch.minY = min(patch.minY, y)
      patch.maxY = max(patch.maxY, y)
      // Onwards, the whole run's width; back towards the run it was seen from, only where
      // this run reaches past it (the rest of that row is that run, taken already). The
      // start was seen from no run (1...0): both ways whole.
      let (ahead, behind) = (y + direction, y - direction)
      if ahead >= 0 && ahead < height {
        seedRuns(
          y: ahead, x0: x0, x1: x1, from: (x0, x1), direction: direction, seeds: &seeds, touches: &touches)
      }
      if behind >= 0 && behind < height {
        if parent.x0 > parent.x1 {
          seedRuns(
            y: behind, x0: x0, x1: x1, from: (x0, x1), direction: -direction, seeds: &seeds, touches: &touches
          )
        } else {
          seedRuns(
            y: behind, x0: x0, x1: min(x1, parent.x0 - 1), from: (x0, x1), direction: -direction,
            seeds: &seeds,
            touches: &touches)
          seedRuns(
            y: behind, x0: max(x0, parent.x1 + 1), x1: x1, from: (x0, x1), direction: -direction,
            seeds: &seeds,
            touches: &touches)
        }
      }
    }
    return (patch, members, codesTaken, touches)
  }

  /// Whether pixel `i` of `classes` (a plane `width` x `height`) is red with a yellow pixel
  /// left, right, above or below.
  static func isRedBesideYellow(_ i: Int, classes: [PixelClass], width: Int, height: Int) -> Bool {
    let (x, y) = (i % width, i / width)
    return classes[i] == .red
      && ((x > 0 && classes[i - 1] == .yellow) || (x + 1 < width && classes[i + 1] == .yellow)
        || (y > 0 && classes[i - width] == .yellow) || (y + 1 < height && classes[i + width] == .yellow))
  }

  /// The warm patch of `image` holding the pixel `start` (red and yellow pixels together, by
  /// `classes`, cleared as it is taken), with the indices of its pixels, when it holds both
  /// colours: coloured by its most saturated pixel (the first of them in the image's order),
  /// red when that pixel's hue is at most `warmSplit` degrees (-180 to 180), yellow past it.
  /// Nil when it holds one colour, or `start` was taken already. `seeds` is working space,
  /// left empty.
  static func warmPatch(
    of image: RGBImage, classes: inout [PixelClass], from start: Int, warmSplit: Double,
    seeds: inout SeedStack
  ) -> (patch: Patch, members: [Int])? {
    classes.withUnsafeMutableBufferPointer { classes in
      classes.withMemoryRebound(to: UInt8.self) { codes in
        guard codes[start] == 1 || codes[start] == 2 else { return nil }
        return image.read { bytes in
          let (patch, members, codesTaken, _) = fill(
            codes.baseAddress!, bytes.baseAddress!, width: image.width, height: image.height, from: start,
            alsoJoining: 3 - codes[start], keepingMembers: true, seeds: &seeds)
          guard codesTaken & 0b110 == 0b110 else { return nil }
          var strongest = (saturation: -1, index: start)
          for i in members {
            let (r, g, b) = (bytes[3 * i], bytes[3 * i + 1], bytes[3 * i + 2])
            let largest = Int(max(r, g, b))
            // Saturation, chroma over value, in 1/1024ths (a lamp pixel's value is not 0).
            let saturation = (largest - Int(min(r, g, b))) * 1024 / max(largest, 1)
            if saturation > strongest.saturation
              || (saturation == strongest.saturation && i < strongest.index)
            {
              strongest = (saturation, i)
            }
          }
          let i = strongest.index
          let hue = PixelColor(r: bytes[3 * i], g: bytes[3 * i + 1], b: bytes[3 * i + 2]).hue
          var warm = patch
          warm.color = (hue > 180 ? hue - 360 : hue) > warmSplit ? .yellow : .red
          return (warm, members)
        }
      }
    }
  }

  /// The candidate lamps of this scale, in its pixels: for each lamp, one candidate for each
  /// way of head it may be the lit lamp of, its squares read from `table` when given (the
  /// plane's pixels summed).
  func candidates(finder: LampFinder, table: SummedTable?) -> [[LampCandidate]] {
    var found: [[LampCandidate]] = []
    for lamp in lamps {
      let candidates = candidates(from: lamp, finder: finder, table: table)
      if !candidates.isEmpty { found.append(candidates) }
    }
    return found
  }

  /// The lights the lamp-shaped `patch` may be the lit lamp of, with what was measured of
  /// each.
  func candidates(from patch: Patch, finder: LampFinder, table: SummedTable?) -> [LampCandidate] {
    let (bw, bh) = (patch.maxX - patch.minX + 1, patch.maxY - patch.minY + 1)
    let d = Double(max(bw, bh))
    let (cx, cy) = (Double(patch.minX) + Double(bw) / 2, Double(patch.minY) + Double(bh) / 2)
    let lamp = (
      value: max(Double(patch.valueSum) / Double(patch.area), 1),
      chroma: max(Double(patch.chromaSum) / Double(patch.area), 1)
    )
    // Where the unlit lamps are, in pitches from the lit one, by the lamp order.
    let slots: (Double, Double) =
      switch patch.color {
      case .red: (1, 2)
      case .yellow: (-1, 1)
      case .green, .unknown: (-2, -1)
      }
    // The patch's width is the lamp's diameter: a visor cuts its top off, a halo or a
    // smear lengthens it downwards, in heads of either way.
    let pitch = finder.lampPitch * Double(bw)
    func candidate(_ orientation: Orientation, redFirst: Bool = true) -> LampCandidate? {
      // Red last (a horizontal head of left-hand traffic): the unlit lamps the other way,
      // and the head's box too.
      let slots = redFirst ? slots : (-slots.0, -slots.1)
      // The mean value and chroma of the square of side `side` centred `across` and `along`
      // pixels from the lamp's centre.
      func square(across: Double, along: Double, side: Double) -> (value: Double, chroma: Double)? {
        let (sx, sy) = orientation == .vertical ? (cx + across, cy + along) : (cx + along, cy + across)
        return means(
          x0: Int(sx - side / 2), x1: Int(sx + side / 2), y0: Int(sy - side / 2), y1: Int(sy + side / 2),
          table: table)
      }
      // That square's mean value and chroma as shares of the lamp's, nil when it is off the
      // image.
      func ratios(across: Double, along: Double, side: Double) -> (value: Double, chroma: Double)? {
        square(across: across, along: along, side: side).map {
          ($0.value / lamp.value, $0.chroma / lamp.chroma)
        }
      }
      guard let first = ratios(across: 0, along: slots.0 * pitch, side: d),
        let second = ratios(across: 0, along: slots.1 * pitch, side: d),
        first.value <= finder.unlitRatio, second.value <= finder.unlitRatio
      else { return nil }
      // The housing beside the lamp either side, and between it and its first unlit lamp;
      // a square off the image counts dark.
      let left = ratios(across: -0.75 * d, along: 0, side: d / 2) ?? (0, 0)
      let right = ratios(across: 0.75 * d, along: 0, side: d / 2) ?? (0, 0)
      let gap = ratios(across: 0, along: (slots.0 > 0 ? 0.5 : -0.5) * pitch, side: d / 2) ?? (0, 0)
      let surround = ratios(across: 0, along: 0, side: 3 * d) ?? (0, 0)
      let measurements = LampMeasurements(
        color: patch.color, relativeSize: d / Double(max(width, height)),
        fill: Double(patch.area) / Double(bw * bh), elongation: log(Double(bh) / Double(bw)),
        value: lamp.value / 255, chroma: lamp.chroma / 255,
        unlitValues: (max(first.value, second.value), min(first.value, second.value)),
        unlitChromas: (max(first.chroma, second.chroma), min(first.chroma, second.chroma)),
        sideValues: (max(left.value, right.value), min(left.value, right.value)),
        sideChroma: max(left.chroma, right.chroma), gap: (gap.value, gap.chroma),
        surround: (surround.value, surround.chroma))
      let place = patch.color == .red ? 0.0 : patch.color == .yellow ? 1.0 : 2.0
      let index = redFirst ? place : 2 - place
      let along = (orientation == .vertical ? cy : cx) - (index + 0.5) * pitch - 0.2 * d
      let length = 3 * pitch + 0.4 * d
      let across = (orientation == .vertical ? cx : cy) - 0.75 * d
      let box =
        orientation == .vertical
        ? (x0: across, y0: along, x1: across + 1.5 * d, y1: along + length)
        : (x0: along, y0: across, x1: along + length, y1: across + 1.5 * d)
      let light = FoundLight(
        box: PixelRegion(
          x: Int(box.x0.rounded(.down)), y: Int(box.y0.rounded(.down)),
          width: Int(box.x1.rounded(.up)) - Int(box.x0.rounded(.down)),
          height: Int(box.y1.rounded(.up)) - Int(box.y0.rounded(.down))),
        lamp: PixelRegion(x: patch.minX, y: patch.minY, width: bw, height: bh), color: patch.color,
        confidence: finder.evidence.confidence(of: measurements), orientation: orientation)
      return LampCandidate(light: light, measurements: measurements)
    }
    var found: [LampCandidate] = []
    if finder.heads != .horizontal, let vertical = candidate(.vertical) { found.append(vertical) }
    if finder.heads != .vertical {
      if finder.horizontalRed != .right, let horizontal = candidate(.horizontal) { found.append(horizontal) }
      if finder.horizontalRed != .left, let mirrored = candidate(.horizontal, redFirst: false) {
        found.append(mirrored)
      }
    }
    return found
  }
}

/// The seeds of a plane's fills: pairs of integers, last in first out, in memory that grows
/// as it is needed (a fill seldom holds more than a few dozen).
package struct SeedStack {
  private var base: UnsafeMutablePointer<Int>
  private var capacity: Int
  private var count = 0

  private init(capacity: Int) {
    self.capacity = capacity
    base = .allocate(capacity: capacity)
  }

  /// The result of `body` given an empty stack, which lives until it returns.
  package static func using<Result>(_ body: (inout SeedStack) -> Result) -> Result {
    var seeds = SeedStack(capacity: 256)
    defer { seeds.base.deallocate() }
    return body(&seeds)
  }

  /// Puts the pair `a`, `b` on top.
  @inline(__always) mutating func push(_ a: Int, _ b: Int) {
    if count + 2 > capacity {
      let larger = UnsafeMutablePointer<Int>.allocate(capacity: 2 * capacity)
      larger.moveInitialize(from: base, count: count)
      base.deallocate()
      (base, capacity) = (larger, 2 * capacity)
    }
    (base[count], base[count + 1]) = (a, b)
    count += 2
  }

  /// Takes the pair on top off, nil when there is none.
  @inline(__always) mutating func pop() -> (Int, Int)? {
    guard count > 0 else { return nil }
    count -= 2
    return (base[count], base[count + 1])
  }
}
