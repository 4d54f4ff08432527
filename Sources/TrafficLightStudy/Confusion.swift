import TrafficLight

/// Read colours against true ones: the confusion matrix and what follows from it.
public struct Confusion: Sendable, Equatable {
  /// `counts[truth][read]`.
  public private(set) var counts: [SignalColor: [SignalColor: Int]] = [:]

  /// An empty matrix.
  public init() {}

  /// Counts one image labelled `truth` read as `read`.
  public mutating func add(truth: SignalColor, read: SignalColor) {
    counts[truth, default: [:]][read, default: 0] += 1
  }

  /// Adds `other`'s counts to these.
  public mutating func merge(_ other: Confusion) {
    for (truth, row) in other.counts {
      for (read, count) in row { counts[truth, default: [:]][read, default: 0] += count }
    }
  }

  /// How many images labelled `truth` were read as `read`.
  public func count(truth: SignalColor, read: SignalColor) -> Int { counts[truth]?[read] ?? 0 }

  /// Images whose true state is a colour (red, yellow or green): the ones accuracy counts.
  public var labelled: Int {
    SignalColor.byRestrictiveness.reduce(0) { total, truth in
      total + (counts[truth]?.values.reduce(0, +) ?? 0)
    }
  }

  /// Images read as their true colour.
  public var correct: Int { SignalColor.byRestrictiveness.reduce(0) { $0 + count(truth: $1, read: $1) } }

  /// Every image, whatever its label.
  public var total: Int { counts.values.reduce(0) { $0 + $1.values.reduce(0, +) } }

  /// Images read as their label, `unknown` included (a light labelled unreadable must be
  /// read as `unknown`), over all images; 0 when there are none.
  public var agreement: Double {
    total == 0 ? 0 : Double(correct + count(truth: .unknown, read: .unknown)) / Double(total)
  }

  /// Correct over labelled; 0 when nothing is labelled.
  public var accuracy: Double { labelled == 0 ? 0 : Double(correct) / Double(labelled) }

  /// The share of `color`'s images read as `color`; `nil` when there are none.
  public func recall(_ color: SignalColor) -> Double? {
    let total = counts[color]?.values.reduce(0, +) ?? 0
    return total == 0 ? nil : Double(count(truth: color, read: color)) / Double(total)
  }

  /// Red lights read as green: the dangerous mistake.
  public var redCalledGreen: Int { count(truth: .red, read: .green) }
}
