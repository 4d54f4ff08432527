/// How the tests were built.
package enum TestBuild {
  /// Whether the tests were compiled optimised (`swift test -c release`, as CI's release pass
  /// builds them); false in a debug build, the sanitizers' included.
  #if DEBUG
    package static let optimised = false
  #else
    package static let optimised = true
  #endif
}
