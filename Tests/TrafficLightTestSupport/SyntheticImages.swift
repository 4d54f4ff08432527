import Foundation
import TrafficLight
import TrafficLightKernels

/// A synthetic vertical light: dark housing, one lit lamp (a saturated disc) in the top,
/// middle or bottom third; all dark for `unknown`.
package func syntheticLight(lit: SignalColor, width: Int = 30, height: Int = 90) -> RGBImage {
  var image = RGBImage(width: width, height: height, fill: (30, 30, 30))
  guard lit != .unknown else { return image }
  let third = height / 3
  let row =
    switch lit {
    case .red: 0
    case .yellow: 1
    default: 2
    }
  let colour: (UInt8, UInt8, UInt8) =
    switch lit {
    case .red: (255, 10, 10)
    case .yellow: (255, 190, 0)
    default: (0, 255, 180)
    }
  let cx = width / 2
  let cy = row * third + third / 2
  let r = min(width, third) * 2 / 5
  for y in 0..<height {
    for x in 0..<width where (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r {
      image[x, y] = colour
    }
  }
  return image
}

/// Copies `light` into `frame` with its top-left corner at (`x`, `y`).
/// `light` turned a quarter: its top row becomes its left column (a horizontal head, red on
/// the left).
package func turnedToHorizontal(_ light: RGBImage) -> RGBImage {
  var turned = RGBImage(width: light.height, height: light.width)
  for y in 0..<light.height {
    for x in 0..<light.width { turned[y, light.width - 1 - x] = light[x, y] }
  }
  return turned
}

/// Paints the pixels of columns `x` and rows `y` of `image` one colour.
package func paint(_ color: (UInt8, UInt8, UInt8), x: Range<Int>, y: Range<Int>, in image: inout RGBImage) {
  for row in y {
    for column in x { image[column, row] = color }
  }
}

package func paste(_ light: RGBImage, into frame: inout RGBImage, x: Int, y: Int) {
  for row in 0..<light.height {
    for column in 0..<light.width { frame[x + column, y + row] = light[column, row] }
  }
}

/// The folder of this test process's temporary folders: `traffic-light-tests-PID` under the
/// system's temporary folder. Made on first use, after the folders of test processes no
/// longer running are removed (a test run ends without a hook to remove its own).
private let testFolders: String = {
  let temporary = FileManager.default.temporaryDirectory
  let prefix = "traffic-light-tests-"
  for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
  where name.hasPrefix(prefix) {
    guard let pid = pid_t(name.dropFirst(prefix.count)), kill(pid, 0) != 0, errno == ESRCH else { continue }
    try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
  }
  return temporary.appendingPathComponent(prefix + String(getpid())).path
}()

/// A new empty folder under the system's temporary folder, removed by a later test run once
/// this one has ended.
package func temporaryFolder() throws -> String {
  let url = URL(fileURLWithPath: testFolders).appendingPathComponent(UUID().uuidString)
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url.path
}

/// A new folder of whole frames with boxes, as `evaluate` reads them: each of `frames`
/// written as a PNG at `frames/NAME`, and `boxes` (the CSV's text) as `boxes.csv`.
package func boxedFramesFolder(_ frames: [(name: String, image: RGBImage)], boxes: String) throws -> String {
  let folder = try temporaryFolder()
  try FileManager.default.createDirectory(atPath: folder + "/frames", withIntermediateDirectories: true)
  for frame in frames { try writePNG(frame.image, to: folder + "/frames/" + frame.name) }
  try boxes.write(toFile: folder + "/boxes.csv", atomically: true, encoding: .utf8)
  return folder
}

/// Writes `image` as a PNG at `path`.
package func writePNG(_ image: RGBImage, to path: String) throws {
  try Data(try ImageEncoder.png(image)).write(to: URL(fileURLWithPath: path))
}

/// A 320x240 frame of pale blue sky over a grey road, with a synthetic 30x90 light of each
/// colour in `lights` pasted with its top-left corner at its point.
package func syntheticFrame(_ lights: [(color: SignalColor, x: Int, y: Int)] = []) -> RGBImage {
  var frame = RGBImage(width: 320, height: 240, fill: (150, 180, 220))
  for y in 180..<240 {
    for x in 0..<320 { frame[x, y] = (90, 90, 90) }
  }
  for light in lights { paste(syntheticLight(lit: light.color), into: &frame, x: light.x, y: light.y) }
  return frame
}

/// A bright yellow housing whose lamps burn out: two grey unlit lamps and one near-white lit
/// one (none saturated: no lamp colour to find), `diameter` wide lamps at `pitch` 1.35.
package func blownOutHousing(lit: SignalColor, diameter: Int) -> RGBImage {
  let pitch = Double(diameter) * 1.35
  let width = Int(Double(diameter) * 1.4)
  let height = Int(2 * pitch + Double(diameter) * 1.4)
  var image = RGBImage(width: width, height: height, fill: (245, 225, 120))
  let place = [SignalColor.red, .yellow, .green].firstIndex(of: lit)
  for k in 0..<3 {
    let cx = Double(width) / 2
    let cy = Double(height) / 2 + Double(k - 1) * pitch
    let r = Double(diameter) / 2
    for y in 0..<height {
      for x in 0..<width {
        let (dx, dy) = (Double(x) + 0.5 - cx, Double(y) + 0.5 - cy)
        if dx * dx + dy * dy <= r * r { image[x, y] = k == place ? (252, 250, 240) : (120, 118, 112) }
      }
    }
  }
  return image
}

/// A dark, textured scene (foliage-like noise from `seed`), with a white pole and a plain
/// yellow board as distractors, and the housing (if any) at (`x`, `y`).
package func carParkScene(
  housing: RGBImage?, x: Int = 0, y: Int = 0, seed: UInt64, width: Int = 200, height: Int = 150
) -> RGBImage {
  var state = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
  var frame = RGBImage(width: width, height: height, fill: (40, 50, 35))
  for row in 0..<height {
    for column in 0..<width {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let n = UInt8((state >> 33) % 40)
      frame[column, row] = (30 + n, 40 + n, 25 + n / 2)
    }
  }
  paint((230, 230, 230), x: (width - 20)..<(width - 16), y: 10..<(height - 10), in: &frame)
  paint((240, 220, 110), x: 10..<40, y: (height - 30)..<(height - 18), in: &frame)
  if let housing { paste(housing, into: &frame, x: x, y: y) }
  return frame
}
