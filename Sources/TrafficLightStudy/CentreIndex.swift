import TrafficLight
import TrafficLightKernels

/// Rectangles bucketed by the cells of a square grid they cover, to find those that hold a
/// point's centre without testing every one: the matching of found lights to labelled boxes
/// stays near linear with thousands of each on one frame.
///
/// Coordinates are doubled (a region's centre is then whole, as `holdsCentre(of:)` reads it).
/// A rectangle covering more than `widest` cells is kept aside and tested for every point.
struct CentreIndex {
  private static let cellSide = 128  // in doubled pixels
  private static let widest = 256  // cells
  private var cells: [SIMD2<Int>: [Int]] = [:]
  private var wide: [Int] = []
  private let regions: [PixelRegion]

  /// An index of `regions`, each found by its position in the array.
  init(_ regions: [PixelRegion]) {
    self.regions = regions
    for (index, region) in regions.enumerated() {
      let (low, high) = Self.cellRange(region)
      let count = (high.x - low.x + 1).multipliedReportingOverflow(by: high.y - low.y + 1)
      guard !count.overflow, count.partialValue <= Self.widest else {
        wide.append(index)
        continue
      }
      for cy in low.y...high.y {
        for cx in low.x...high.x { cells[SIMD2(cx, cy), default: []].append(index) }
      }
    }
  }

  /// The cells a region's doubled span covers, corner to corner.
  private static func cellRange(_ region: PixelRegion) -> (SIMD2<Int>, SIMD2<Int>) {
    let low = SIMD2(2 * region.x, 2 * region.y)
    let high = SIMD2(2 * (region.x + region.width) - 1, 2 * (region.y + region.height) - 1)
    return (cell(of: low), cell(of: high))
  }

  private static func cell(of point: SIMD2<Int>) -> SIMD2<Int> {
    SIMD2(floorDivide(point.x, cellSide), floorDivide(point.y, cellSide))
  }

  private static func floorDivide(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

  /// The indices of the regions that hold the centre of `other`, in increasing order.
  func holding(centreOf other: PixelRegion) -> [Int] {
    let centre = SIMD2(2 * other.x + other.width, 2 * other.y + other.height)
    let candidates = (cells[Self.cell(of: centre)] ?? []) + wide
    return candidates.filter { regions[$0].holdsCentre(of: other) }.sorted()
  }
}
