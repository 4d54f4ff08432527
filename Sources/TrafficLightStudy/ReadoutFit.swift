import Foundation
import TrafficLight

/// Fits a `LightNetwork.Readout` to measured features: multinomial logistic regression with
/// an L2 penalty on the weights, by full-batch gradient descent (Adam), from a given readout
/// or from zero. The loss per example is the cross-entropy of its label, weighted so that
/// each class counts by the square root of its rarity, plus `redAsGreenCost` times the
/// probability of green for a red light: what `scripts/train_light_network.py` trains with.
public struct ReadoutFit: Sendable {
  /// The weight of the L2 penalty, per weight, over the mean loss.
  public var l2 = 1e-3
  /// Gradient steps.
  public var steps = 400
  /// Adam's step size.
  public var rate = 0.05
  /// What a red light's probability of green adds to its loss.
  public var redAsGreenCost = 1.0

  /// A fit with the default settings.
  public init() {}

  /// The readout whose softmax best gives `labels` (indices into `classes`) from `features`,
  /// starting at `start` (zero weights when nil). Every row of `features` has the same length.
  public func fit(
    features: [[Float]], labels: [Int], classes: [SignalColor], from start: LightNetwork.Readout? = nil
  ) -> LightNetwork.Readout {
    let k = classes.count
    let d = features.first?.count ?? 0
    var w =
      start.map { $0.weights.map { $0.map(Double.init) } }
      ?? Array(repeating: Array(repeating: 0, count: d), count: k)
    var b = start.map { $0.bias.map(Double.init) } ?? Array(repeating: 0, count: k)
    guard !features.isEmpty, k > 0 else {
      return LightNetwork.Readout(weights: w.map { $0.map(Float.init) }, bias: b.map(Float.init))
    }
    let x = features.map { $0.map(Double.init) }
    var counts = [Double](repeating: 0, count: k)
    for label in labels { counts[label] += 1 }
    let classWeight = counts.map { $0 > 0 ? (Double(labels.count) / $0 / Double(k)).squareRoot() : 0 }
    let red = classes.firstIndex(of: .red)
    let green = classes.firstIndex(of: .green)
    // Adam's moments, weights then biases.
    var m = [Double](repeating: 0, count: k * (d + 1))
    var v = m
    let (beta1, beta2) = (0.9, 0.999)
    for step in 1...steps {
      var gradW = Array(repeating: [Double](repeating: 0, count: d), count: k)
      var gradB = [Double](repeating: 0, count: k)
      for (row, label) in zip(x, labels) {
        var scores = b
        for c in 0..<k {
          for j in 0..<d { scores[c] += w[c][j] * row[j] }
        }
        let top = scores.max()!
        var p = scores.map { Foundation.exp($0 - top) }
        let total = p.reduce(0, +)
        for c in 0..<k { p[c] /= total }
        // d(loss)/d(score c): cross-entropy's (p - onehot) times the class weight, plus the
        // cost of green for a red light: cost * p_g * (onehot_g - p).
        var delta = (0..<k).map { c in classWeight[label] * (p[c] - (c == label ? 1 : 0)) }
        if label == red, let green {
          for c in 0..<k { delta[c] += redAsGreenCost * p[green] * ((c == green ? 1 : 0) - p[c]) }
        }
        for c in 0..<k {
          gradB[c] += delta[c]
          for j in 0..<d { gradW[c][j] += delta[c] * row[j] }
        }
      }
      let n = Double(labels.count)
      for c in 0..<k {
        for j in 0...d {
          let g = j < d ? gradW[c][j] / n + 2 * l2 * w[c][j] : gradB[c] / n
          let i = c * (d + 1) + j
          m[i] = beta1 * m[i] + (1 - beta1) * g
          v[i] = beta2 * v[i] + (1 - beta2) * g * g
          let mHat = m[i] / (1 - Foundation.pow(beta1, Double(step)))
          let vHat = v[i] / (1 - Foundation.pow(beta2, Double(step)))
          let change = rate * mHat / (vHat.squareRoot() + 1e-8)
          if j < d { w[c][j] -= change } else { b[c] -= change }
        }
      }
    }
    return LightNetwork.Readout(weights: w.map { $0.map(Float.init) }, bias: b.map(Float.init))
  }
}
