infix operator <| : MultiplicationPrecedence
infix operator <|? : MultiplicationPrecedence
infix operator <|| : MultiplicationPrecedence
infix operator <||? : MultiplicationPrecedence
infix operator <|-| : MultiplicationPrecedence
infix operator <|-|? : MultiplicationPrecedence

/// The value at `keyPath`: `e <| "name"` is ``Extractor/value(_:)``.
public func <| <T: JSONDecodable>(e: Extractor, keyPath: JSONKeyPath) throws -> T {
    try e.value(keyPath)
}

/// The value at `keyPath`, or nil when missing or null: ``Extractor/valueOptional(_:)``.
public func <|? <T: JSONDecodable>(e: Extractor, keyPath: JSONKeyPath) throws -> T? {
    try e.valueOptional(keyPath)
}

/// The array at `keyPath`: ``Extractor/array(_:)``.
public func <|| <T: JSONDecodable>(e: Extractor, keyPath: JSONKeyPath) throws -> [T] {
    try e.array(keyPath)
}

/// The array at `keyPath`, or nil when missing or null: ``Extractor/arrayOptional(_:)``.
public func <||? <T: JSONDecodable>(e: Extractor, keyPath: JSONKeyPath) throws -> [T]? {
    try e.arrayOptional(keyPath)
}

/// The object at `keyPath` as a dictionary: ``Extractor/dictionary(_:)``.
public func <|-| <T: JSONDecodable>(e: Extractor, keyPath: JSONKeyPath) throws -> [String: T] {
    try e.dictionary(keyPath)
}

/// The object at `keyPath` as a dictionary, or nil when missing or null: ``Extractor/dictionaryOptional(_:)``.
public func <|-|? <T: JSONDecodable>(e: Extractor, keyPath: JSONKeyPath) throws -> [String: T]? {
    try e.dictionaryOptional(keyPath)
}
