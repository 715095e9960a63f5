/// A number as the short decimal feeds write it: `mantissa`·10^−`scale`, with at most 15
/// significant digits, 6 decimals and no trailing zero, below 10⁹ unless it is whole.
///
/// Such a decimal and the `Double` nearest it determine each other (15 digits fit a double's
/// precision), so ``EventDetails`` keeps the decimal in place of the double: fewer bytes, and
/// the shortest text of the value is its own digits. ``init(_:)`` (from a `Double`) and
/// ``init(mantissa:scale:)`` (from text) give the same decimal for the same value; `-0.0`,
/// values out of range and longer decimals have none.
package struct ShortDecimal: Sendable, Hashable {
    /// The digits, signed; below 10¹⁵ in magnitude, and not a multiple of 10 when ``scale`` > 0.
    package let mantissa: Int64
    /// The decimals: 0 … 6.
    package let scale: Int

    private static let limit: Int64 = 1_000_000_000_000_000
    private static let powers: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6]

    /// `mantissa`·10^−`scale` with its trailing zeros dropped; `nil` when that is not short.
    package init?(mantissa: Int64, scale: Int) {
        guard scale >= 0, mantissa.magnitude < UInt64(Self.limit) else { return nil }
        var mantissa = mantissa, scale = scale
        while scale > 0 && mantissa % 10 == 0 {
            mantissa /= 10
            scale -= 1
        }
        guard scale <= 6 else { return nil }
        // Fractions only below 10⁹: there a 6-decimal grid is finer than a double's spacing
        // (what makes ``init(_:)`` exact), so both initialisers agree on every value.
        if scale > 0 && Double(mantissa.magnitude) >= 1e9 * Self.powers[scale] { return nil }
        self.mantissa = mantissa
        self.scale = scale
    }

    /// The short decimal whose nearest `Double` is `value`, with the fewest decimals; `nil` when there is none.
    ///
    /// Below 10⁹ the decimals of six places that could round to `value` lie within 0.6 of
    /// `value`·10⁶, and at most one does (the spacing of doubles there is below 10⁻⁶): the
    /// rounded product or a neighbour, each tested by reading it back (m / 10⁶ is correctly
    /// rounded, both operands being exact).
    package init?(_ value: Double) {
        guard value.isFinite, !(value == 0 && value.sign == .minus) else { return nil }
        let magnitude = value.magnitude
        if magnitude < 1e15, magnitude == magnitude.rounded(.down) {
            self.init(mantissa: Int64(value), scale: 0)
            return
        }
        guard magnitude < 1e9 else { return nil }
        var candidate = (magnitude * 1e6).rounded()
        if candidate / 1e6 != magnitude {
            candidate -= 1
            if candidate / 1e6 != magnitude {
                candidate += 2
                if candidate / 1e6 != magnitude { return nil }
            }
        }
        self.init(mantissa: value < 0 ? -Int64(candidate) : Int64(candidate), scale: 6)
    }

    /// The decimal from its ``word``.
    package init(word: UInt64) {
        let zigzag = word >> 3
        mantissa = Int64(bitPattern: (zigzag >> 1) ^ (0 &- (zigzag & 1)))
        scale = Int(word & 7)
    }

    /// The decimal as one unsigned word for a variable-length encoding: the mantissa zig-zag
    /// encoded, then the scale in three bits (7 never occurs: a stored double's tag).
    package var word: UInt64 {
        UInt64(bitPattern: (mantissa << 1) ^ (mantissa >> 63)) << 3 | UInt64(scale)
    }

    /// The `Double` nearest the decimal.
    package var value: Double { Self.value(mantissa: mantissa, scale: scale) }

    /// The `Double` nearest `mantissa`·10^−`scale`, for a mantissa below 2⁵³ and a scale of 0 … 22
    /// (Clinger's fast path: both operands exact, one rounding); other decimals through their text.
    package static func value(mantissa: Int64, scale: Int) -> Double {
        if scale == 0 { return Double(mantissa) }
        if mantissa.magnitude < 1 << 53, scale <= 22 {
            return Double(mantissa) / (scale < powers.count ? powers[scale] : pow10(scale))
        }
        var text = String(mantissa.magnitude)
        if text.count <= scale { text = String(repeating: "0", count: scale - text.count + 1) + text }
        text.insert(".", at: text.index(text.endIndex, offsetBy: -scale))
        return (mantissa < 0 ? -1 : 1) * (Double(text) ?? .nan)
    }

    /// 10^`exponent`, exact for 0 … 22.
    private static func pow10(_ exponent: Int) -> Double {
        var result = 1.0
        for _ in 0..<exponent { result *= 10 }
        return result
    }
}
