// libFuzzer entry point for the profile loader (`Profile.decode`): any bytes must give a
// profile or a ProfileError, never a trap; and a profile it accepts must read a light, a
// grey frame and a one-pixel image without trapping, whatever its values.
import Foundation
import TrafficLight
import TrafficLightKernels

let images: [RGBImage] = {
  var light = RGBImage(width: 20, height: 48, fill: (20, 20, 20))
  for y in 2..<14 {
    for x in 4..<16 { light[x, y] = (250, 30, 20) }
  }
  return [light, RGBImage(width: 33, height: 17, fill: (128, 128, 128)), RGBImage(width: 1, height: 1, fill: (0, 255, 0))]
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard let profile = try? Profile.decode(Data(bytes: data, count: size), path: "<fuzz>") else { return 0 }
  let pipeline = FramePipeline(profile: profile)
  for image in images {
    _ = pipeline.classify(image)
    _ = pipeline.classify(image, keepingMap: true)
  }
  return 0
}
