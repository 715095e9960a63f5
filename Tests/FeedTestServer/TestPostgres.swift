import Foundation

/// The PostgreSQL server `make test` started beside the tests (scripts/with_postgres.sh), and
/// new catalogue databases on it, made as docs/catalogue.md tells an administrator to.
public enum TestPostgres {
    private static let environment = ProcessInfo.processInfo.environment
    /// `socket folder:port`, for psql as the trusted superuser; `nil` when no server was started.
    public static let admin = environment["QUAKEMAP_TEST_POSTGRES_ADMIN"]
    public static var present: Bool { admin != nil }
    public static let writerPassword = environment["QUAKEMAP_TEST_POSTGRES_WRITER_PASSWORD"] ?? ""
    public static let readerPassword = environment["QUAKEMAP_TEST_POSTGRES_READER_PASSWORD"] ?? ""
    /// The port the server listens on at 127.0.0.1.
    public static var port: String { admin.map { String($0.split(separator: ":").last ?? "") } ?? "" }

    /// The repository, found from this file.
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A new, empty database owned by the writer role and readable by the reader role; its name.
    public static func createCatalogueDatabase() throws -> String {
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        try psql("postgres", "CREATE DATABASE \(name) OWNER quakemap_writer")
        try psql(String(name), file: repositoryRoot.appendingPathComponent("scripts/catalogue_database.sql").path)
        return String(name)
    }

    /// Drops a database made by ``createCatalogueDatabase()``, ending its sessions.
    public static func drop(_ name: String) {
        _ = try? psql("postgres", "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// The writer's and the reader's URLs of database `name`, with their passwords.
    public static func urls(_ name: String) -> (writer: String, reader: String) {
        ("postgresql://quakemap_writer:\(writerPassword)@127.0.0.1:\(port)/\(name)",
         "postgresql://quakemap_reader:\(readerPassword)@127.0.0.1:\(port)/\(name)")
    }

    /// Runs psql as the superuser (trusted on the server's socket); its output.
    @discardableResult
    public static func psql(_ database: String, _ sql: String? = nil, file: String? = nil) throws -> String {
        guard let admin else { throw Failed(description: "no PostgreSQL server was started for the tests") }
        let parts = admin.split(separator: ":")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = ["-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-h", String(parts[0]), "-p", String(parts[1]),
                             "-U", "postgres", "-d", database] + (sql.map { ["-c", $0] } ?? []) + (file.map { ["-f", $0] } ?? [])
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failed(description: message) }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public struct Failed: Error, CustomStringConvertible {
        public let description: String
    }
}
