/// A conversion from one decoded type to another, for values JSON has no type for (dates,
/// measurements, identifiers), applied to what an operator returns:
///
/// ```swift
/// let cents = Transformer<Int, Money> { Money(cents: $0) }
/// let price: Money = try cents.apply(e <| "price")
/// ```
///
/// Errors thrown by the closure are wrapped with the value's path and location when `apply`
/// runs inside a model's `decode`.
public struct Transformer<From, To>: Sendable {
    private let transform: @Sendable (From) throws -> To

    /// A transformer running `transform`.
    public init(_ transform: @escaping @Sendable (From) throws -> To) {
        self.transform = transform
    }

    /// Transforms one value.
    public func apply(_ value: From) throws -> To { try transform(value) }

    /// Transforms an optional value; `nil` stays `nil`.
    public func apply(_ value: From?) throws -> To? { try value.map(transform) }

    /// Transforms every element.
    public func apply(_ values: [From]) throws -> [To] { try values.map(transform) }

    /// Transforms every element of an optional array; `nil` stays `nil`.
    public func apply(_ values: [From]?) throws -> [To]? { try values.map { try $0.map(transform) } }

    /// Transforms every value of a dictionary.
    public func apply(_ values: [String: From]) throws -> [String: To] { try values.mapValues(transform) }

    /// Transforms every value of an optional dictionary; `nil` stays `nil`.
    public func apply(_ values: [String: From]?) throws -> [String: To]? { try values.map { try $0.mapValues(transform) } }
}
