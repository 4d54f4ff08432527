import CKernels

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which compiled form of the blur and the classifier runs.
///
/// The package is built for its architecture's baseline (no build flags), and the C kernels
/// (`Sources/CKernels`) carry one copy per x86-64 instruction set, each compiled with that
/// set's `target` attribute; `best` picks the highest the CPU runs, once, at first use.
/// `portable` is the same arithmetic written in Swift SIMD types, with no C. Every level
/// computes the same bits (integer arithmetic only: tested); they differ in speed only. (A
/// blur whose radius passes the fixed-point form's limit runs in `Float` at every level: see
/// `GaussianBlur`.)
public enum KernelLevel: String, Sendable, CaseIterable, Comparable {
  /// Swift SIMD types, compiled for the architecture's baseline, no C.
  case portable
  /// C for the architecture's baseline, in 8 lanes of the compiler's own vector types (NEON
  /// on arm64, SSE2 on x86-64): the C form on CPUs other than x86-64 (arm64, for one).
  case generic
  /// x86-64's baseline (every x86-64 CPU): 8 sixteen-bit lanes.
  case sse2
  /// AVX2 with FMA and BMI2 (most x86-64 CPUs since 2013): 16 lanes.
  case avx2
  /// AVX-512 F, BW, VL and DQ: 32 lanes.
  case avx512

  /// Whether this CPU runs the level.
  public var isSupported: Bool {
    switch self {
    case .portable: true
    case .generic, .sse2, .avx2, .avx512: tl_level_supported(cLevel) != 0
    }
  }

  /// The levels this CPU runs, lowest first.
  public static var supported: [KernelLevel] { allCases.filter(\.isSupported) }

  /// The level kernels use unless told otherwise: the one named by the environment variable
  /// `TRAFFIC_LIGHT_KERNELS` (for tests and benchmarks) when this CPU runs it, else the
  /// highest this CPU runs.
  public static let best: KernelLevel = chosen(byEnvironment: environmentValue).level

  /// The level `value` (the environment variable's, or nil) names, and why another was taken
  /// when one was (an unknown name, or a level this CPU does not run).
  public static func chosen(byEnvironment value: String?) -> (level: KernelLevel, problem: String?) {
    let highest = supported.last ?? .portable
    guard let value, !value.isEmpty else { return (highest, nil) }
    guard let named = KernelLevel(rawValue: value) else {
      let names = allCases.map(\.rawValue).joined(separator: ", ")
      return (highest, "\(environmentVariable)=\(value) names no kernel level (one of \(names))")
    }
    guard named.isSupported else {
      let names = supported.map(\.rawValue).joined(separator: ", ")
      return (highest, "\(environmentVariable)=\(value): this CPU does not run it (it runs \(names))")
    }
    return (named, nil)
  }

  /// The environment variable that forces a level.
  public static let environmentVariable = "TRAFFIC_LIGHT_KERNELS"

  /// The environment variable's value, if set.
  public static var environmentValue: String? {
    getenv(environmentVariable).map { String(cString: $0) }
  }

  /// The C kernels' number for the level (`TL_LEVEL_...`); `portable` has none.
  var cLevel: Int32 {
    switch self {
    case .portable, .generic: Int32(TL_LEVEL_GENERIC)
    case .sse2: Int32(TL_LEVEL_SSE2)
    case .avx2: Int32(TL_LEVEL_AVX2)
    case .avx512: Int32(TL_LEVEL_AVX512)
    }
  }

  /// Lower levels first, in the order of `allCases`.
  public static func < (a: KernelLevel, b: KernelLevel) -> Bool {
    allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
  }
}
