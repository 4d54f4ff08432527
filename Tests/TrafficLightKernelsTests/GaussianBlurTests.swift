import Testing
import TrafficLightKernels
import TrafficLightTestSupport

@Suite struct GaussianBlurTests {
  static let sizes = [(1, 1), (1, 7), (7, 1), (13, 13), (17, 3)]
  static let sigmas = [0.5, 1, 2, 3.5]

  /// The random images' sigmas, numbered (the number seeds the image): they include the
  /// fixed-point form's largest radius (16) and one past it.
  static let randomImageSigmas = (sigmas + [16.0 / 3, 5.4, 0.05, 0.2]).enumerated().map {
    ($0.offset, $0.element)
  }

  /// Every level this CPU runs is checked (`KernelLevel.supported`), whichever is the default,
  /// each against one reference per image and sigma: images smaller than the kernel, down to
  /// one pixel, where every tap falls off an edge.
  @Test(arguments: sizes, randomImageSigmas)
  func blur_randomImages_withinOneOfFloat64Reference(size: (Int, Int), sigma: (index: Int, value: Double)) {
    expectWithinOneOfReference(size: size, sigma: sigma)
  }

  /// The same on a 640x480 image: the vector loops and strips at a real frame's width. Run
  /// optimised (CI's release pass): the reference's arithmetic is most of its time, two
  /// minutes unoptimised, and the bit-for-bit and strip tests take its paths at every level in
  /// any build.
  @Test(
    .enabled(if: TestBuild.optimised, "run by .ci/run's release pass: unoptimised it takes minutes"),
    arguments: randomImageSigmas)
  func blur_largeRandomImage_withinOneOfFloat64Reference(sigma: (index: Int, value: Double)) {
    expectWithinOneOfReference(size: (640, 480), sigma: sigma)
  }

  /// A random image of `size` (seeded by its size and the sigma's number) blurred at every
  /// level, within one of the Float64 reference.
  private func expectWithinOneOfReference(size: (Int, Int), sigma: (index: Int, value: Double)) {
    let image = randomImage(width: size.0, height: size.1, seed: UInt64(size.0 * 1000 + size.1 + sigma.index))
    let reference = referenceBlur(image, sigma: sigma.value).byteArray
    for level in KernelLevel.supported {
      let fast = GaussianBlur(sigma: sigma.value, level: level).apply(to: image).byteArray
      let worst = zip(fast, reference).map { abs(Int($0) - Int($1)) }.max() ?? 0
      #expect(worst <= 1, "\(level), size \(size.0)x\(size.1), sigma \(sigma.value): off by \(worst)")
    }
  }

  /// The worst images for the fixed-point form: channels at 0 and 255 in stripes and
  /// checks, where each pass's truncations and weight roundings add up most.
  @Test(arguments: KernelLevel.supported)
  func blur_extremeImages_withinOneOfFloat64Reference(level: KernelLevel) {
    let patterns: [(Int, Int) -> UInt8] = [
      { x, _ in x % 2 == 0 ? 255 : 0 }, { x, y in (x + y) % 2 == 0 ? 255 : 0 },
      { x, y in (x / 3 + y / 5) % 2 == 0 ? 255 : 0 }, { _, _ in 255 },
      { x, y in x % 13 == 6 || y % 13 == 6 ? 255 : 0 },
    ]
    for sigma in [0.3, 1, 2, 3.5, 16.0 / 3] {
      for pattern in patterns {
        var image = RGBImage(width: 61, height: 47)
        for y in 0..<47 {
          for x in 0..<61 { image[x, y] = (pattern(x, y), 255 - pattern(x, y), pattern(y, x)) }
        }
        let fast = GaussianBlur(sigma: sigma, level: level).apply(to: image).byteArray
        let reference = referenceBlur(image, sigma: sigma).byteArray
        let worst = zip(fast, reference).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "\(level), sigma \(sigma): off by \(worst)")
      }
    }
  }

  /// The C levels compute in integers, and `portable` the same operations in Swift, lane by
  /// lane: the same image bit for bit, at every width (the vector loops and their scalar
  /// tails: rows of 3, 6, 9 and 33 channels among them) and radius up to the fixed-point
  /// form's last.
  @Test(arguments: [0.5, 1, 2, 3.5, 16.0 / 3])
  func blur_everyLevel_givesTheSameImageBitForBit(sigma: Double) {
    for (width, height) in [(640, 31), (97, 13), (1, 5), (2, 9), (3, 4), (200, 200), (11, 40)] {
      let image = randomImage(width: width, height: height, seed: UInt64(width * 7 + height))
      let generic = GaussianBlur(sigma: sigma, level: .generic).apply(to: image)
      for level in KernelLevel.supported where level != .generic {
        #expect(
          GaussianBlur(sigma: sigma, level: level).apply(to: image) == generic,
          "\(level), sigma \(sigma), \(width)x\(height)")
      }
    }
  }

  /// The AVX-512 level, where the CPU has it (the parameterised tests above take every level
  /// the CPU runs; this one says so when AVX-512 is not among them).
  @Test(.enabled(if: KernelLevel.avx512.isSupported, "this CPU has no AVX-512"))
  func blur_avx512_equalsGeneric() {
    let image = randomImage(width: 1283, height: 37, seed: 5)
    #expect(
      GaussianBlur(sigma: 2, level: .avx512).apply(to: image)
        == GaussianBlur(sigma: 2, level: .generic).apply(to: image))
  }

  /// The sparse form (`pixel`) computes what `apply` does, at each level, on a region of a
  /// larger image (rows `image.width * 3` bytes apart).
  @Test(arguments: KernelLevel.supported)
  func blur_pixel_equalsApplyOnTheRegion(level: KernelLevel) {
    let image = randomImage(width: 90, height: 70, seed: 12)
    let region = PixelRegion(x: 13, y: 9, width: 41, height: 33)
    // Sigmas 1 and 2 (radius 3 and 6) take the unrolled passes, 0.5 the loop.
    for sigma in [0.5, 1, 2, 6.0] {
      let blur = GaussianBlur(sigma: sigma, level: level)
      let whole = blur.apply(to: image.cropped(to: region))
      for y in 0..<region.height {
        for x in 0..<region.width where blur.pixel(x: x, y: y, in: image, region: region) != whole[x, y] {
          Issue.record("\(level), sigma \(sigma): (\(x), \(y)) differs from apply")
          return
        }
      }
    }
  }

  /// The rows form (`rows`) gives the rows `apply` gives, at each level, on a region of a
  /// larger image and on the whole image (its last row ends the buffer): rows at the
  /// region's edges (where the taps clamp), out of order and repeated, and none; sigma 0 and
  /// a radius past the fixed-point form (the `Float` form at every level) included.
  @Test(arguments: KernelLevel.supported)
  func blur_rows_equalApplyOnTheRegion(level: KernelLevel) {
    let image = randomImage(width: 90, height: 70, seed: 13)
    let rows = [0, 1, 5, 16, 31, 32, 16, 2]
    blurRows(rows, of: image, region: PixelRegion(x: 13, y: 9, width: 41, height: 33), level: level)
    blurRows(
      rows + [69, 68], of: image, region: PixelRegion(x: 0, y: 0, width: 90, height: 70), level: level)
  }

  private func blurRows(_ rows: [Int], of image: RGBImage, region: PixelRegion, level: KernelLevel) {
    for sigma in [0, 0.5, 1, 2, 6.0] {
      let blur = GaussianBlur(sigma: sigma, level: level)
      let whole = blur.apply(to: image.cropped(to: region))
      let picked = blur.rows(rows, of: image, region: region)
      #expect(picked.width == region.width && picked.height == rows.count)
      for (k, y) in rows.enumerated() {
        for x in 0..<region.width where picked[x, k] != whole[x, y] {
          Issue.record("\(level), sigma \(sigma), \(region): row \(y), column \(x) differs from apply")
          return
        }
      }
      #expect(blur.rows([], of: image, region: region).height == 0)
    }
  }

  @Test func blur_smoothImage_matchesReferenceExactlyAlmostEverywhere() {
    // On a gradient the values are far from .5 ties: nearly every channel must be exact, so a
    // systematic bias of a fraction of a level cannot hide under the tolerance of 1.
    var image = RGBImage(width: 64, height: 48)
    for y in 0..<48 {
      for x in 0..<64 { image[x, y] = (UInt8(x * 4), UInt8(y * 5), UInt8((x + y) * 2)) }
    }
    let fast = GaussianBlur(sigma: 2).apply(to: image).byteArray
    let reference = referenceBlur(image, sigma: 2).byteArray
    let different = zip(fast, reference).filter { $0 != $1 }.count
    #expect(different * 100 <= fast.count, "\(different) of \(fast.count) channels differ")
  }

  /// The `Float` form works in vertical strips of pixels; the strips must not show. Narrow
  /// strips put strip edges everywhere, and kernels wider than a strip reach past the
  /// neighbouring strips and the image's edges. Sigma 6 (radius 18) is past the fixed-point
  /// form, where `pixel` runs the `Float` form too.
  @Test(arguments: [0.5, 2, 3.5, 6])
  func blur_everyStripWidth_givesTheSameImage(sigma: Double) {
    let image = randomImage(width: 150, height: 9, seed: 99)
    let blur = GaussianBlur(sigma: sigma, level: .portable)
    let whole = blur.apply(to: image, stripWidth: image.width)
    for width in [1, 2, 5, 16, 21, 64, 149] {
      #expect(blur.apply(to: image, stripWidth: width) == whole, "strips of \(width) pixels")
    }
    guard blur.fixedWeights.isEmpty else { return }
    let region = PixelRegion(x: 0, y: 0, width: image.width, height: image.height)
    let narrow = blur.apply(to: image, stripWidth: 5)
    for y in 0..<image.height {
      for x in 0..<image.width where blur.pixel(x: x, y: y, in: image, region: region) != narrow[x, y] {
        Issue.record("sigma \(sigma): (\(x), \(y)) differs from the sparse pixel")
        return
      }
    }
  }

  /// Sigmas whose square underflows, or whose side weights round to nothing, leave the
  /// image as it is at every level (they once made every weight NaN).
  @Test(arguments: KernelLevel.supported)
  func blur_vanishingSigma_isTheIdentity(level: KernelLevel) {
    let image = randomImage(width: 23, height: 17, seed: 4)
    for sigma in [1e-200, 1e-162, 1e-100, 0.01, 0.1] {
      let blur = GaussianBlur(sigma: sigma, level: level)
      #expect(!blur.weights.contains { !$0.isFinite }, "sigma \(sigma)")
      #expect(blur.apply(to: image) == image, "sigma \(sigma)")
      let region = PixelRegion(x: 0, y: 0, width: 23, height: 17)
      let pixel = blur.pixel(x: 5, y: 6, in: image, region: region)
      let original = image[5, 6]
      #expect(pixel.r == original.r && pixel.g == original.g && pixel.b == original.b)
    }
  }

  @Test(arguments: [0.5, 2, 3.5])
  func blur_uniformFrame_isUnchanged(sigma: Double) {
    let image = RGBImage(width: 37, height: 23, fill: (200, 17, 255))
    #expect(GaussianBlur(sigma: sigma).apply(to: image) == image)
  }

  @Test func blur_sigmaZero_isIdentity() {
    let image = randomImage(width: 31, height: 9, seed: 7)
    #expect(GaussianBlur(sigma: 0).apply(to: image) == image)
  }

  @Test func blur_radius_isCeilingOfThreeSigma() {
    #expect(GaussianBlur(sigma: 2).radius == 6)
    #expect(GaussianBlur(sigma: 2).weights.count == 13)
    #expect(GaussianBlur(sigma: 0.5).radius == 2)
    #expect(GaussianBlur(sigma: 3.5).radius == 11)
    let total = GaussianBlur(sigma: 2).weights.reduce(0, +)
    #expect(abs(total - 1) < 1e-6)
  }

  @Test func blur_singleBrightPixel_spreadsSymmetrically() {
    var image = RGBImage(width: 21, height: 21)
    image[10, 10] = (255, 255, 255)
    let blurred = GaussianBlur(sigma: 2).apply(to: image)
    #expect(blurred[10, 10].r > blurred[11, 10].r)
    #expect(blurred[9, 10] == blurred[11, 10])
    #expect(blurred[10, 9] == blurred[10, 11])
    #expect(blurred[0, 0] == (0, 0, 0))
  }
}

@Suite struct SparseBlurTests {
  @Test(arguments: [(1, 1), (7, 1), (1, 9), (17, 3), (45, 97), (64, 5), (200, 7), (333, 4)])
  func pixel_equalsTheFullBlurBitForBit_everywhere(size: (Int, Int)) {
    for sigma in [0.0, 0.5, 2, 3.5] {
      let image = randomImage(width: size.0, height: size.1, seed: UInt64(size.0 &* 31 &+ size.1))
      let blur = GaussianBlur(sigma: sigma)
      let full = blur.apply(to: image)
      let whole = PixelRegion(x: 0, y: 0, width: size.0, height: size.1)
      for y in 0..<size.1 {
        for x in 0..<size.0 where blur.pixel(x: x, y: y, in: image, region: whole) != full[x, y] {
          Issue.record("sigma \(sigma), \(size): (\(x), \(y)) differs")
          return
        }
      }
    }
  }

  @Test func pixel_inARegion_equalsTheBlurOfTheCrop() {
    let image = randomImage(width: 60, height: 50, seed: 99)
    let region = PixelRegion(x: 13, y: 7, width: 21, height: 30)
    let blur = GaussianBlur(sigma: 2)
    let crop = blur.apply(to: image.cropped(to: region))
    for y in 0..<region.height {
      for x in 0..<region.width {
        #expect(blur.pixel(x: x, y: y, in: image, region: region) == crop[x, y])
      }
    }
  }
}
