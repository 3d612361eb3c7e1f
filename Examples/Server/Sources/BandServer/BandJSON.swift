import BandCatalog
import Foundation
import Spool

extension JSONWriter {
    /// Writes `band` as the tutorial's catalog has it: `name`, `homepage` (when it has one),
    /// `active` and `members` with `name` and `birth_date` (`yyyy-MM-dd`).
    func write(_ band: Band) throws {
        try beginObject()
        try key("name")
        try string(band.name)
        if let homepage = band.homepageURL {
            try key("homepage")
            try string(homepage.absoluteString)
        }
        try key("active")
        try string(band.status.rawValue)
        try key("members")
        try beginArray()
        for member in band.members {
            try beginObject()
            try key("name")
            try string(member.name)
            try key("birth_date")
            try string(Self.day(member.birthDate))
            try endObject()
        }
        try endArray()
        try endObject()
    }

    /// `date`'s day in UTC as `yyyy-MM-dd` (years 1 to 9999).
    static func day(_ date: Date) -> String {
        // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
        let days = Int((date.timeIntervalSince1970 / 86_400).rounded(.down)) + 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func padded(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }
}
