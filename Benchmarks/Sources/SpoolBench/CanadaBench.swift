import Spool

// canada.json (nativejson-benchmark): one polygon feature whose coordinates are 111,126
// floating-point numbers of up to 17 significant digits, so decoding it measures number
// conversion more than anything else.

/// The document: a feature collection.
struct CanadaCollection: Decodable {
    var type: String
    var features: [CanadaFeature]
}

/// A feature: a name and a geometry.
struct CanadaFeature: Decodable {
    var type: String
    var properties: [String: String]
    var geometry: CanadaGeometry
}

/// A polygon: rings of `[longitude, latitude]` points.
struct CanadaGeometry: Decodable {
    var type: String
    var coordinates: [[[Double]]]
}

/// `canada FILE`: canada.json decoded whole with `StreamingJSONDecoder` into the models above;
/// returns the number of coordinates and their sum (so that none is optimized away).
func decodeCanada(path: String) throws -> (numbers: Int, sum: Double) {
    let document = try StreamingJSONDecoder().decode(CanadaCollection.self, fromContentsOfFile: path)
    var count = 0
    var sum = 0.0
    for feature in document.features {
        for ring in feature.geometry.coordinates {
            for point in ring {
                count += point.count
                sum += point.reduce(0, +)
            }
        }
    }
    return (count, sum)
}
