#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A detached POSIX thread that runs one closure and ends.
///
/// Foundation's `Thread` gives each thread a run loop that Core Foundation tears down as the
/// thread exits; under ThreadSanitizer that teardown sometimes allocates after the sanitizer
/// has let go of the thread, and the process crashes. A plain POSIX thread has no run loop.
package enum WorkerThread {
  /// Starts a thread running `body`, with an 8 MiB stack.
  package static func start(_ body: @escaping @Sendable () -> Void) {
    let box = Unmanaged.passRetained(Body(body)).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, 8 << 20)
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    #if canImport(Darwin)
      var thread: pthread_t? = nil
    #else
      var thread = pthread_t()
    #endif
    let status = pthread_create(
      &thread, &attributes,
      { box in
        #if canImport(Darwin)
          let body = Unmanaged<Body>.fromOpaque(box).takeRetainedValue()
        #else
          let body = Unmanaged<Body>.fromOpaque(box!).takeRetainedValue()
        #endif
        body.run()
        return nil
      }, box)
    precondition(status == 0, "cannot start a thread (pthread_create: \(status))")
  }

  private final class Body: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }
}
