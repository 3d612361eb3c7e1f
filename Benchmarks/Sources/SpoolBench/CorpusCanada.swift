import Foundation

// canada.json (nativejson-benchmark): Canada's border as a GeoJSON FeatureCollection, one
// Polygon feature of 480 rings, 55,563 points: nearly all of it floating-point numbers.

/// The models of canada.json (GeoJSON).
enum Canada {
    /// The document: a GeoJSON `FeatureCollection`.
    struct FeatureCollection: Codable, Equatable, Sendable {
        let type: String
        let features: [Feature]
    }

    /// A GeoJSON `Feature`: a named shape.
    struct Feature: Codable, Equatable, Sendable {
        let type: String
        let properties: Properties
        let geometry: Geometry
    }

    /// A feature's properties: its name.
    struct Properties: Codable, Equatable, Sendable {
        let name: String
    }

    /// A GeoJSON `Polygon`: rings of `[longitude, latitude]` points.
    struct Geometry: Codable, Equatable, Sendable {
        let type: String
        let coordinates: [[[Double]]]
    }
}
