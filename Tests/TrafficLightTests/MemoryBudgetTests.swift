import Foundation
import Testing
import TrafficLightKernels
import TrafficLightTestSupport

@testable import TrafficLight

@Suite struct MemoryBudgetTests {
  /// A reservation waits while the budget is held, and goes through once it is given back;
  /// one larger than the whole budget is refused at once.
  @Test func reserve_waitsForRoom_andRefusesWhatCanNeverFit() async {
    let budget = MemoryBudget(bytes: 100)
    #expect(budget.reserve(70))
    #expect(!budget.reserve(101))
    let second = Task.detached { budget.reserve(50) }
    try? await Task.sleep(nanoseconds: 100_000_000)
    #expect(budget.inUse == 70)  // the second still waits
    budget.release(70)
    #expect(await second.value)
    #expect(budget.inUse == 50)
    budget.release(50)
    #expect(budget.inUse == 0)
  }

  /// The estimate from a header already read (what a reading that read it for the choice of
  /// frame or crop reserves) is the estimate from the bytes, for each kind the decoder keeps
  /// its own buffers for: baseline, progressive and CMYK JPEGs and a PNG.
  @Test func estimate_fromTheHeaderRead_equalsTheEstimateFromTheBytes() throws {
    let image = RGBImage(width: 120, height: 70, fill: (200, 30, 40))
    let files = [
      try ImageEncoder.jpeg(image, quality: 90), try ImageEncoder.jpeg(image, quality: 90, progressive: true),
      try ImageEncoder.jpeg(image, quality: 90, layout: .cmyk), try ImageEncoder.png(image),
    ]
    let decoder = ImageDecoder()
    var estimates: Set<Int> = []
    for bytes in files {
      let estimate = decoder.estimatedMemory(of: bytes)
      #expect(
        decoder.estimatedMemory(of: bytes, header: try decoder.header(of: bytes, name: "f")) == estimate)
      estimates.insert(estimate - bytes.count)
    }
    // The four kinds keep different buffers: the test would see a header that lost one.
    #expect(estimates.count == 4)
  }

  /// An image whose estimate passes the budget is a decode failure naming the file and both
  /// sizes; the budget is given back after each reading, fitting or not.
  @Test func reader_refusesAnImageOverTheBudget_andGivesBackWhatItTook() throws {
    let folder = try temporaryFolder()
    let big = folder + "/big.png"
    let small = folder + "/small.png"
    try Data(try ImageEncoder.png(RGBImage(width: 1000, height: 1000, fill: (0, 0, 0)))).write(
      to: URL(fileURLWithPath: big))
    try Data(try ImageEncoder.png(RGBImage(width: 20, height: 50, fill: (0, 0, 0)))).write(
      to: URL(fileURLWithPath: small))
    let decoder = ImageDecoder()
    let estimate = decoder.estimatedMemory(of: Array(try Data(contentsOf: URL(fileURLWithPath: big))))
    #expect(estimate >= 1000 * 1000 * 10)
    let budget = MemoryBudget(bytes: estimate - 1)
    let reader = ImageReader(pipeline: FramePipeline(profile: .default), budget: budget)
    let refused = reader.read(big)
    guard case .failure(.decode(let error)) = refused.outcome else {
      Issue.record("read over the budget: \(refused.outcome)")
      return
    }
    #expect(error == .overMemoryBudget(path: big, needed: estimate, budget: estimate - 1))
    #expect(error.description.hasPrefix(big + ": reading it needs about"))
    guard case .success = reader.read(small).outcome else {
      Issue.record("the small image should fit")
      return
    }
    #expect(budget.inUse == 0)
  }
}
