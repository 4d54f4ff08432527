import Testing
import TrafficLightKernels
import TrafficLightTestSupport

@testable import TrafficLight

/// `auto` tells a horizontal head from a vertical one by the region's shape.
@Suite struct OrientationTests {
  @Test func auto_isHorizontalWhenWiderThanTall() {
    #expect(Orientation.auto.resolved(forWidth: 90, height: 30) == .horizontal)
    #expect(Orientation.auto.resolved(forWidth: 30, height: 90) == .vertical)
    #expect(Orientation.auto.resolved(forWidth: 40, height: 40) == .vertical)
    #expect(Orientation.vertical.resolved(forWidth: 90, height: 30) == .vertical)
    #expect(Orientation.horizontal.resolved(forWidth: 30, height: 90) == .horizontal)
  }

  /// On a wide region the rows run left to right, as `horizontal` places them; on a tall one
  /// down the light, as `vertical` does.
  @Test func auto_placesTheGridAsTheShapeSays() {
    let wide = SampleGrid(points: 7, orientation: .auto).positions(width: 90, height: 30)
    #expect(wide == SampleGrid(points: 7, orientation: .horizontal).positions(width: 90, height: 30))
    let tall = SampleGrid(points: 7, orientation: .auto).positions(width: 30, height: 90)
    #expect(tall == SampleGrid(points: 7, orientation: .vertical).positions(width: 30, height: 90))
  }

  /// A horizontal head in a wide crop: with `auto` the rows run along its lamps, so the
  /// seed's seven points cross the lit lamp; read as vertical they run across the head's
  /// short side, a single column of pixels, and can miss it.
  /// `rows` names the rows the grid's points lie on, each once, top to bottom, for grids of
  /// each way and region sizes from a pixel up (rows shared by several points included).
  @Test func rows_areThoseThePointsLieOn() {
    for orientation in Orientation.allCases {
      for (points, columns) in [(7, 1), (9, 9), (3, 5), (1, 1), (12, 2)] {
        let grid = SampleGrid(points: points, columns: columns, orientation: orientation)
        for (width, height) in [(1, 1), (2, 7), (40, 90), (90, 40), (5, 3), (13, 13)] {
          let expected = Array(Set(grid.positions(width: width, height: height).map(\.y))).sorted()
          #expect(
            grid.rows(width: width, height: height) == expected,
            "\(orientation) \(points)x\(columns) on \(width)x\(height)")
        }
      }
    }
  }

  @Test func auto_readsAHorizontalHead_alongItsLamps() {
    let turned = ExifOrientation.rotated90.display(syntheticLight(lit: .red))  // lamps side by side
    #expect(turned.width > turned.height)
    var profile = Profile.seed
    profile.grid.orientation = .auto
    let reading = FramePipeline(profile: profile).classify(turned)
    #expect(reading.color == .red, "\(reading.decision.counts)")
    #expect(reading.decision.samples.map(\.y).allSatisfy { $0 == turned.height / 2 })
  }
}
