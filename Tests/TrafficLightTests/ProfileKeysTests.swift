import Foundation
import Testing
import TrafficLightKernels

@testable import TrafficLight

/// A profile file says what it means or is refused: misspelt keys, fractional counts and
/// paths that are not files each get a message naming the problem.
@Suite struct ProfileKeysTests {
  static let thresholds =
    #""thresholds":{"saturationFloor":0.5,"green":{"lower":140,"upper":220},"yellow":{"lower":5,"upper":60},"red":{"lower":340,"upper":5}}"#

  static func reason(_ json: String) -> String? {
    do {
      _ = try Profile.decode(Data(json.utf8), path: "p.json")
      return nil
    } catch {
      guard case .invalid(_, let reason) = error else { return "\(error)" }
      return reason
    }
  }

  @Test func unknownKeys_anywhere_areNamed() throws {
    #expect(Self.reason(#"{"sigmaa":2,\#(Self.thresholds)}"#)?.contains("unknown key 'sigmaa'") == true)
    let nested = Self.thresholds.replacingOccurrences(of: #""upper":5}"#, with: #""upper":5,"lowr":3}"#)
    #expect(Self.reason("{\(nested)}")?.contains("unknown key 'thresholds.red.lowr'") == true)
    let rule =
      #"{\#(Self.thresholds),"decider":{"kind":"cascade","rules":[{"kind":"brightnessFallback","margin":0,"floor":0.7,"flor":0.7}]}}"#
    #expect(
      Self.reason(rule)?.contains("unknown key 'decider.rules.0.flor'") == true, "\(Self.reason(rule) ?? "")")
    #expect(
      Self.reason(#"{\#(Self.thresholds),"decider":{"kind":"cascade","lampOrdr":[]}}"#)?.contains(
        "decider.lampOrdr") == true)
    #expect(Self.reason(#"{\#(Self.thresholds),"warmSplit":{"hue":8,"hueSpan":1}}"#) != nil)
  }

  /// Every profile this package ships, and the JSON of each built-in one, has no unknown key.
  @Test func shippedProfiles_haveNoUnknownKey() throws {
    for profile in Profile.builtIn {
      let json = try JSONEncoder().encode(profile)
      #expect(ProfileKeys.firstUnknown(in: json) == nil, "\(profile.name)")
    }
    let untrained = try Data(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "../../profiles/untrained.json"))
    #expect(ProfileKeys.firstUnknown(in: untrained) == nil)
    #expect(throws: Never.self) { try Profile.decode(untrained, path: "untrained.json") }
    // The compiled-in files load without the key check: it is here instead.
    for (name, json) in [
      ("default", PackageResources.default_json), ("fitted", PackageResources.fitted_json),
    ] {
      #expect(ProfileKeys.firstUnknown(in: Data(json)) == nil, "\(name)")
      #expect(try Profile.decode(Data(json), path: name) == Profile.named(name))
    }
  }

  /// The default profile's file names what its cascade reads; its finder is `LampFinder()`
  /// looking for vertical heads, with the evidence model of `lamp-evidence.json`, and the
  /// housing search fitted to the shared frames (`HousingSearchTests`).
  @Test func defaultProfile_isItsFile_withTheFinderDefaults() throws {
    var finder = LampFinder()
    finder.heads = .vertical
    var found = try #require((Profile.default.locator as? LitLampRegion)?.finder)
    #expect(found.housings != nil)
    found.housings = nil
    #expect(found == finder)
    #expect(Profile.default == Profile.default.oriented(.vertical))
    #expect(LampFinder().evidence.weights.count == LampEvidence.termCount)
    let evidence = try JSONDecoder().decode(
      LampEvidence.self, from: Data(PackageResources.lamp_evidence_json))
    #expect(evidence == LampEvidence.fitted && evidence.problem == nil)
    let kinds = (Profile.default.decider as? CascadeDecider)?.rules.map { type(of: $0).kind }
    #expect(kinds == ["warmSplit", "warmPlace", "faintLamp", "brightnessFallback", "redVetoesGreen"])
    #expect(try Profile.decode(Profile.default.json(), path: "default") == Profile.default)
  }

  @Test func fractionalCounts_andFifos_areNamed() throws {
    #expect(
      Self.reason(#"{"points":7.5,\#(Self.thresholds)}"#)
        == "bad value at 'points': must be a whole number, not 7.5")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID())").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(mkfifo(folder + "/p.json", 0o600) == 0)
    #expect(throws: ProfileError.unreadable(path: folder + "/p.json", reason: "not a regular file")) {
      try Profile.named(folder + "/p.json")
    }
  }
}
