import Foundation

/// Where a catalogue is kept: a SQLite file, or a PostgreSQL + PostGIS database.
package enum CatalogueLocation: Sendable, Hashable, CustomStringConvertible {
    /// A SQLite file (created by the first ingest).
    case sqlite(path: String)
    /// A PostgreSQL database, as `postgresql://[user[:password]@][host][:port]/database`.
    case postgres(PostgresLocation)

    /// `sqlite` or `postgresql`.
    package var kind: String {
        switch self {
        case .sqlite: return "sqlite"
        case .postgres: return "postgresql"
        }
    }

    /// Reads `text`: a `postgresql://` or `postgres://` URL, else a file path.
    ///
    /// - Throws: ``CatalogueError/invalidLocation(_:reason:)`` for a URL that cannot be read.
    package init(_ text: String) throws {
        if text.hasPrefix("postgresql://") || text.hasPrefix("postgres://") {
            self = .postgres(try PostgresLocation(url: text))
        } else if text.isEmpty {
            throw CatalogueError.invalidLocation("", reason: "give a SQLite file or a postgresql:// URL")
        } else {
            self = .sqlite(path: text)
        }
    }

    /// The location as it may be printed: never with a password.
    package var description: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let location): return location.description
        }
    }
}

/// A PostgreSQL database: host (or the Unix socket folder), port, database and
/// role. The password comes from the URL, else `PGPASSWORD`, else the password
/// file (`PGPASSFILE` or `~/.pgpass`, as libpq reads it); it is never printed.
package struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
    /// A host name or address; a path (starting with `/`) is the folder of a Unix socket.
    package var host: String
    /// The port (default 5432, or `PGPORT`).
    package var port: Int
    /// The database (default: the role's name, as libpq).
    package var database: String
    /// The role (default `PGUSER`, else the login name).
    package var user: String
    /// `disable`, `prefer` (the default) or `require`, from `?sslmode=`.
    package var sslMode: String
    /// The password found for the connection, if any.
    package var password: String?

    /// Reads `postgresql://[user[:password]@][host][:port][/database][?sslmode=…&host=…]`.
    ///
    /// - Throws: ``CatalogueError/invalidLocation(_:reason:)``.
    package init(url: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let redacted = Self.redact(url)
        guard let components = URLComponents(string: url), let scheme = components.scheme,
              scheme == "postgresql" || scheme == "postgres" else {
            throw CatalogueError.invalidLocation(redacted, reason: "not a URL of the form postgresql://[user@]host[:port]/database")
        }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] { query[item.name] = item.value ?? "" }
        for name in query.keys where !["sslmode", "host", "port", "user", "dbname"].contains(name) {
            throw CatalogueError.invalidLocation(redacted, reason: "unknown parameter '\(name)' (known: sslmode, host, port, user, dbname)")
        }
        host = query["host"] ?? components.percentEncodedHost.flatMap { $0.removingPercentEncoding }.flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["PGHOST"] ?? "/var/run/postgresql"
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let portText = query["port"] ?? components.port.map(String.init) ?? environment["PGPORT"] ?? "5432"
        guard let port = Int(portText), (1...65_535).contains(port) else {
            throw CatalogueError.invalidLocation(redacted, reason: "port '\(portText)' is not 1…65535")
        }
        self.port = port
        user = query["user"] ?? components.user.flatMap { $0.isEmpty ? nil : $0 } ?? environment["PGUSER"]
            ?? ProcessInfo.processInfo.userName
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = query["dbname"] ?? (path.isEmpty ? (environment["PGDATABASE"] ?? user) : path)
        sslMode = query["sslmode"] ?? environment["PGSSLMODE"] ?? "prefer"
        guard ["disable", "prefer", "require"].contains(sslMode) else {
            throw CatalogueError.invalidLocation(redacted, reason: "sslmode '\(sslMode)' is not disable, prefer or require")
        }
        // As libpq: an empty PGPASSWORD is none.
        password = components.password ?? environment["PGPASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
            ?? PasswordFile(path: environment["PGPASSFILE"] ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.pgpass"))
                .password(host: host, port: port, database: database, user: user)
    }

    /// Whether ``host`` names the folder of a Unix socket.
    package var isSocket: Bool { host.hasPrefix("/") }

    /// `postgresql://user@host:port/database`: no password.
    package var description: String {
        let shownHost = isSocket ? "" : (host.contains(":") ? "[\(host)]" : host)
        let socket = isSocket ? "?host=\(host)" : ""
        return "postgresql://\(user)@\(shownHost):\(port)/\(database)\(socket)"
    }

    /// `url` with any password in it replaced by `***`, for messages.
    package static func redact(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://"), let at = url[schemeEnd.upperBound...].lastIndex(of: "@") else { return url }
        let credentials = url[schemeEnd.upperBound..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return url }
        return String(url[..<colon]) + ":***" + String(url[at...])
    }

    /// Compared and hashed without the password.
    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.description == rhs.description }
    package func hash(into hasher: inout Hasher) { hasher.combine(description) }
}

/// libpq's password file: `hostname:port:database:username:password` lines,
/// `*` matching anything, `\:` and `\\` escaped; ignored (as libpq does) when
/// others may read it.
package struct PasswordFile {
    package let path: String

    package func password(host: String, port: Int, database: String, user: String) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue, mode & 0o077 == 0,
              let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        // A socket connection matches the entry for "localhost", as in libpq.
        let hostName = host.hasPrefix("/") ? "localhost" : host
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = Self.fields(String(line))
            guard fields.count == 5 else { continue }
            let wanted = [hostName, String(port), database, user]
            if zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }

    private static func fields(_ line: String) -> [String] {
        var fields: [String] = [], current = "", escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" && fields.count < 4 {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        fields.append(current)
        return fields
    }
}
