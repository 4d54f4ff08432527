import Testing
import TrafficLight  // SeededGenerator
import TrafficLightKernels

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
}
