/// Which form of the kernels runs: the one place that knows what the build targets.
///
/// A release build of this package compiles the kernels for the CPU it is built on
/// (`-target-cpu native`, which defines `HOST_CPU`, see Package.swift); every other build
/// targets the baseline of its architecture. The two want different code: wide vector forms
/// that pay off with AVX2 or AVX-512 (branch-free classification, 64 blur channels a step,
/// the 13-tap pass that takes half its taps from registers) and forms that suit the baseline
/// target. Both forms are compiled in every build and both are tested against the same
/// references; `built` picks the one that suits this build, and a kernel can be made with
/// either (for tests and benchmarks).
public enum KernelPath: String, Sendable, CaseIterable {
  /// The forms for the baseline target.
  case baseline
  /// The wide vector forms for a build for the host CPU.
  case hostTuned

  /// The path this build runs by default.
  public static let built: KernelPath = builtForHostCPU ? .hostTuned : .baseline
}

/// Whether this build targets the CPU it was built on. Multiply-adds are then one fused
/// instruction (`addingProduct`); otherwise a multiply and an add, which the baseline target
/// does in hardware where `addingProduct` would call a library routine. A computed constant,
/// not a stored global: inlined, it folds away, and no branch (nor a library call the
/// register allocator must allow for) stays in the kernels' inner loops.
@inline(__always) var builtForHostCPU: Bool {
  #if HOST_CPU
    true
  #else
    false
  #endif
}
