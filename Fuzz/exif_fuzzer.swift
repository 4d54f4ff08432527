// libFuzzer entry point for the EXIF orientation reader (`ExifOrientation.declared(by:)`),
// linked by Fuzz/run.sh against the library built with the fuzzer's instrumentation: any
// input must return a value, never trap.
import TrafficLight
import TrafficLightKernels

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let orientation = ExifOrientation.declared(by: bytes)
  // Exercise the turn too, on a small image, with what the input declared.
  let image = RGBImage(width: 3, height: 2, fill: (1, 2, 3))
  let shown = orientation.display(image)
  precondition(shown.pixelCount == image.pixelCount)
  return 0
}
