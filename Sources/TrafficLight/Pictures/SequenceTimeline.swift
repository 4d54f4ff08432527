/// An SVG picture of a sequence: each frame's own colour in one band, the smoothed colour
/// in another, along the frame axis, with the state changes marked.
public enum SequenceTimeline {
  static func fill(_ color: SignalColor) -> String {
    switch color {
    case .red: "#e53935"
    case .yellow: "#fdd835"
    case .green: "#43a047"
    case .unknown: "#9e9e9e"
    }
  }

  /// The SVG document for frames whose own colours are `colors` and smoothed colours
  /// `smoothed` (the same length). `fps`, when given, labels changes with times.
  ///
  /// Complexity: O(frames); runs of one colour are drawn as one rectangle.
  public static func svg(colors: [SignalColor], smoothed: [SignalColor], fps: Double? = nil) -> String {
    precondition(colors.count == smoothed.count, "one smoothed colour per frame")
    let frames = max(colors.count, 1)
    let left = 90.0
    let plotWidth = 1000.0
    let scale = plotWidth / Double(frames)
    let width = left + plotWidth + 20
    let height = 185.0
    var svg = """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
      viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif" font-size="12">
      <rect width="100%" height="100%" fill="white"/>
      <text x="8" y="44">frame</text>
      <text x="8" y="94">smoothed</text>

      """
    func band(_ values: [SignalColor], y: Double, label: String) {
      var start = 0
      while start < values.count {
        var end = start + 1
        while end < values.count && values[end] == values[start] { end += 1 }
        svg += """
          <rect class="\(label)" data-color="\(values[start].rawValue)" data-first="\(start)" data-last="\(end - 1)" \
          x="\(format(left + Double(start) * scale))" y="\(Int(y))" width="\(format(Double(end - start) * scale))" \
          height="30" fill="\(fill(values[start]))"/>

          """
        start = end
      }
    }
    band(colors, y: 25, label: "frame")
    band(smoothed, y: 75, label: "smoothed")
    // Labels go in the first of three rows with room for them; a change with no room keeps
    // its line and a tooltip.
    var rowEnds = [-Double.infinity, -Double.infinity, -Double.infinity]
    for change in StateChange.changes(in: smoothed) {
      let position = left + Double(change.frame) * scale
      let x = format(position)
      var label = "\(change.frame)"
      if let fps, fps > 0 { label += " (\(format(Double(change.frame) / fps)) s)" }
      let halfWidth = Double(label.count) * 3.5
      // The label is centred on its line, but moved in to stay whole near either end.
      let centre = min(max(position, halfWidth + 4), width - halfWidth - 4)
      svg += """
        <line class="change" data-frame="\(change.frame)" x1="\(x)" y1="20" x2="\(x)" y2="112" stroke="black" \
        stroke-width="1.5"><title>frame \(label): \(change.from.rawValue) to \(change.to.rawValue)</title></line>

        """
      if let row = rowEnds.firstIndex(where: { $0 < centre - halfWidth - 4 }) {
        rowEnds[row] = centre + halfWidth
        svg += """
          <text x="\(format(centre))" y="\(126 + 13 * row)" text-anchor="middle">\(label)</text>

          """
      }
    }
    svg += """
      <text x="\(Int(left))" y="178">frames 0 to \(colors.count - 1)\(fps.map { " at \(format($0)) fps" } ?? "")</text>
      </svg>

      """
    return svg
  }

  private static func format(_ value: Double) -> String {
    let rounded = (value * 100).rounded() / 100
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
  }
}
