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
