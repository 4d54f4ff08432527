import Foundation
import Testing

@testable import TrafficLight

/// Finder values that made the search misbehave are refused when a profile is read.
@Suite struct FinderBoundsTests {
  private func decoded(_ change: (inout LampFinder) -> Void) throws -> Profile {
    var profile = Profile.default
    var locator = try #require(profile.locator as? LitLampRegion)
    change(&locator.finder)
    profile.locator = locator
    return try Profile.decode(profile.json(), path: "p.json")
  }

  @Test func evidenceWeightsBeyondAMillion_areRefused_andNoConfidenceIsNaN() throws {
    #expect(throws: ProfileError.self) { try decoded { $0.evidence.weights[0] = 1e308 } }
    #expect(throws: ProfileError.self) { try decoded { $0.evidence.bias = -1e7 } }
    #expect(try decoded { $0.evidence.weights[0] = 1e6 }.problem == nil)
    var evidence = LampFinder().evidence
    evidence.weights[0] = 1e6
    evidence.weights[1] = -1e6
    let values = [Double](repeating: .infinity, count: LampMeasurements.names.count)
    #expect(evidence.confidence(of: LampMeasurements(values: values)) == 0)
  }

  @Test func searchSide_isBounded() throws {
    #expect(throws: ProfileError.self) { try decoded { $0.searchSide = 1_000_000 } }
    #expect(throws: ProfileError.self) { try decoded { $0.searchSide = 10 } }
    #expect(try decoded { $0.searchSide = LampFinder.largestSearchSide }.problem == nil)
  }
}
