// Users of the library see the kernels' types (RGBImage, GaussianBlur, HSVClassifier, ...)
// with `import TrafficLight` alone.
@_exported import TrafficLightKernels
