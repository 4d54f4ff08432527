import Testing
import TrafficLight  // SeededGenerator
import TrafficLightKernels
import TrafficLightStudy

@Suite struct ValueChromaTests {
  /// The sixteen-bytes-at-a-time value and chroma of a row are each pixel's largest channel
  /// and largest less smallest, at its first byte, for rows of every length from 0 to 40
  /// (whole blocks, tails, rows too short for a block), read from inside a larger buffer.
  @Test func valuesAndChromas_areEachPixelsLargestChannelAndSpread() {
    let image = randomImage(width: 41, height: 1, seed: 21)
    image.read { bytes in
      for count in 0...40 {
        var values = [UInt8](repeating: 0, count: 3 * count + 1)
        var chromas = values
        values.withUnsafeMutableBufferPointer { v in
          chromas.withUnsafeMutableBufferPointer { c in
            valuesAndChromas(of: bytes.baseAddress! + 3, count: count, into: v.baseAddress!, c.baseAddress!)
          }
        }
        for p in 0..<count {
          let (r, g, b) = image[1 + p, 0]
          #expect(values[3 * p] == max(r, g, b), "\(count) pixels: pixel \(p)")
          #expect(chromas[3 * p] == max(r, g, b) - min(r, g, b), "\(count) pixels: pixel \(p)")
        }
      }
    }
  }

  /// The sixteen-bytes-at-a-time sums of value and chroma are each pixel's added up, for
  /// short rows, rows past a flush of the 16-bit lanes (683 pixels fill 128 blocks), and rows
  /// of white and of pure red, whose lanes fill as fast as they can (lanes never flushed
  /// overflow within a row of 4000 white pixels).
  @Test func summedValuesAndChromas_addUpEachPixels() {
    let random = randomImage(width: 4001, height: 1, seed: 22)
    let white = RGBImage(width: 4001, height: 1, fill: (255, 255, 255))
    let red = RGBImage(width: 4001, height: 1, fill: (255, 0, 0))
    for image in [random, white, red] {
      image.read { bytes in
        for count in Array(0...40) + [682, 683, 684, 700, 1366, 1367, 4000] {
          var expected = (value: 0, chroma: 0)
          for p in 1...max(count, 1) where count > 0 {
            let (r, g, b) = image[p, 0]
            expected.value += Int(max(r, g, b))
            expected.chroma += Int(max(r, g, b) - min(r, g, b))
          }
          let sums = summedValueAndChroma(of: bytes.baseAddress! + 3, count: count)
          #expect(sums.value == expected.value && sums.chroma == expected.chroma, "\(count) pixels")
        }
      }
    }
  }
}
