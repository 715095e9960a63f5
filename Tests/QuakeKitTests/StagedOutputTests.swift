import Foundation
import Testing
@testable import QuakeKit
@testable import QuakeModel
@testable import QuakeParse
@testable import QuakeQuery
@testable import QuakeGeo
@testable import QuakeScene
@testable import QuakeRender
@testable import QuakeWrite

/// The temp-then-rename rules every writer shares: one errno mapping, the
/// temporary's name, the sweep after killed runs, the clean-up of an output
/// that is never committed, and the folder set aside between two renames.
@Suite("Staged outputs", .timeLimit(.minutes(10)))
struct StagedOutputTests {
    /// No process has this id (Linux's `pid_max` is at most 2^22).
    static let dead = Int32.max

    func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("staged-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    /// A refusal ("not here": 73 in the CLI) or a failed write (the disk: 74), whatever the writer.
    @Test func errnoDecidesTheCaseTheSameForEveryWriter() {
        enum Kind { case cannotCreateFolder, cannotCreate, writeFailed }
        let table: [(Int32, WriteError.Stage, Kind)] = [
            (EACCES, .createFolder, .cannotCreateFolder), (ENOTDIR, .createFolder, .cannotCreateFolder),
            (EROFS, .createFolder, .cannotCreateFolder), (ENOSPC, .createFolder, .writeFailed),
            (EACCES, .create, .cannotCreate), (EEXIST, .create, .cannotCreate), (ENOENT, .create, .cannotCreate),
            (ENOSPC, .create, .writeFailed), (EDQUOT, .create, .writeFailed), (EMFILE, .create, .writeFailed),
            (EISDIR, .rename, .cannotCreate), (ENOTDIR, .rename, .cannotCreate), (EACCES, .rename, .cannotCreate),
            (EPERM, .rename, .cannotCreate), (EROFS, .rename, .cannotCreate), (EBUSY, .rename, .cannotCreate),
            (ENOTEMPTY, .rename, .cannotCreate), (EIO, .rename, .writeFailed), (ENOSPC, .rename, .writeFailed),
            (ENOSPC, .write, .writeFailed), (EIO, .write, .writeFailed), (EDQUOT, .write, .writeFailed),
            (EACCES, .write, .writeFailed), (EROFS, .write, .writeFailed),
        ]
        for (code, stage, expected) in table {
            let error = WriteError(errno: code, stage: stage, path: "out")
            let kind: Kind? = switch error {
            case .cannotCreateFolder(path: "out", errno: code): .cannotCreateFolder
            case .cannotCreate(path: "out", errno: code): .cannotCreate
            case .writeFailed(path: "out", errno: code): .writeFailed
            default: nil
            }
            #expect(kind == expected, "\(String(cString: strerror(code))) at \(stage)")
        }
    }

    @Test func theTemporaryIsNamedAfterTargetAndProcessBesideTheTarget() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for kind in [StagedOutput.Kind.file, .folder] {
            let staged = try StagedOutput(target: folder.appendingPathComponent("out.png").path, kind: kind)
            let url = URL(fileURLWithPath: staged.stagingPath)
            #expect(url.deletingLastPathComponent().standardizedFileURL.path == folder.standardizedFileURL.path)
            let name = url.lastPathComponent
            let prefix = ".out.png.tmp-\(getpid())-"
            #expect(name.hasPrefix(prefix) && name.count == prefix.count + 6, "\(name)")
            var isFolder: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: staged.stagingPath, isDirectory: &isFolder))
            #expect(isFolder.boolValue == (kind == .folder))
            let mode = try FileManager.default.attributesOfItem(atPath: staged.stagingPath)[.posixPermissions] as? Int
            #expect(mode.map { $0 & 0o044 } == 0o044, "readable by others, as a plain create would make it")
        }
    }

    @Test func aCommittedFileReplacesTheTargetAndLeavesNothingElse() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("map.png").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        let staged = try StagedOutput(target: target, kind: .file)
        try AtomicFileWriter.writeAll(Data("new".utf8), to: staged.descriptor, path: target)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("old".utf8), "nothing visible before the commit")
        try staged.commit()
        #expect(staged.isCommitted)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("new".utf8))
        #expect(try names(in: folder) == ["map.png"])
    }

    @Test func aCommittedFolderReplacesTheOldOneWithNothingSetAsideLeft() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("tiles")
        try FileManager.default.createDirectory(at: target.appendingPathComponent("9"), withIntermediateDirectories: true)
        let staged = try StagedOutput(target: target.path, kind: .folder)
        try Data("new".utf8).write(to: URL(fileURLWithPath: staged.stagingPath + "/tile.png"))
        try staged.commit()
        #expect(try names(in: target) == ["tile.png"])
        #expect(try names(in: folder) == ["tiles"])
    }

    @Test func anOutputNeverCommittedIsRemovedAndTheTargetKept() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("map.png").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: file))
        do {
            let staged = try StagedOutput(target: file, kind: .file)
            try AtomicFileWriter.writeAll(Data("new".utf8), to: staged.descriptor, path: file)
            let tiles = try StagedOutput(target: folder.appendingPathComponent("tiles").path, kind: .folder)
            try FileManager.default.createDirectory(atPath: tiles.stagingPath + "/0/0", withIntermediateDirectories: true)
            try Data("tile".utf8).write(to: URL(fileURLWithPath: tiles.stagingPath + "/0/0/0.png"))
            #expect(try names(in: folder).count == 3)
        }
        #expect(try names(in: folder) == ["map.png"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data("old".utf8))
    }

    @Test func aRefusedRenameIsCannotCreateAndLeavesTheTargetAndNoTemporary() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("map.png")
        try FileManager.default.createDirectory(at: target.appendingPathComponent("inside"), withIntermediateDirectories: true)
        do {
            let staged = try StagedOutput(target: target.path, kind: .file)
            #expect(throws: WriteError.cannotCreate(path: target.path, errno: EISDIR)) { try staged.commit() }
            #expect(!staged.isCommitted)
        }
        #expect(try names(in: folder) == ["map.png"])
        #expect(try names(in: target) == ["inside"])
    }

    /// A process killed outright leaves its temporary; the next output for the
    /// same target removes it, and only those of processes that are gone.
    @Test func temporariesOfDeadProcessesAreSweptAndLiveOnesKept() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("map.png").path
        let deadFile = ".map.png.tmp-\(Self.dead)-abcdef"
        let deadFolder = ".map.png.tmp-\(Self.dead)-ghijkl"
        let mine = ".map.png.tmp-\(getpid())-mnopqr"       // another output of this process, still being written
        let otherTarget = ".other.png.tmp-\(Self.dead)-stuvwx"
        for name in [deadFile, mine, otherTarget] {
            try Data("junk".utf8).write(to: folder.appendingPathComponent(name))
        }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(deadFolder + "/0"), withIntermediateDirectories: true)
        let staged = try StagedOutput(target: target, kind: .file)
        let left = try names(in: folder)
        #expect(!left.contains(deadFile) && !left.contains(deadFolder))
        #expect(left.contains(mine) && left.contains(otherTarget))
        #expect(left.contains(URL(fileURLWithPath: staged.stagingPath).lastPathComponent))
    }

    /// A run killed between its two renames leaves the previous folder aside
    /// and none at the target: the next output puts it back before it sweeps.
    @Test func aFolderSetAsideByAKilledRunIsPutBack() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("tiles").path
        let aside = folder.appendingPathComponent(".tiles.tmp-\(Self.dead)-abcdef-old")
        try FileManager.default.createDirectory(at: aside, withIntermediateDirectories: true)
        try Data("old".utf8).write(to: aside.appendingPathComponent("tile.png"))
        do { _ = try StagedOutput(target: target, kind: .folder) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: target + "/tile.png")) == Data("old".utf8))
        #expect(try names(in: folder) == ["tiles"])
    }

    /// With a folder at the target, one set aside is the older one: swept, not put back.
    @Test func aFolderSetAsideIsSweptWhenTheTargetExists() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("tiles")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try Data("current".utf8).write(to: target.appendingPathComponent("tile.png"))
        let aside = folder.appendingPathComponent(".tiles.tmp-\(Self.dead)-abcdef-old")
        try FileManager.default.createDirectory(at: aside, withIntermediateDirectories: true)
        do { _ = try StagedOutput(target: target.path, kind: .folder) }
        #expect(try Data(contentsOf: target.appendingPathComponent("tile.png")) == Data("current".utf8))
        #expect(try names(in: folder) == ["tiles"])
    }

    @Test func aFileInTheWayOfTheFolderIsCannotCreateFolder() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("plain").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        #expect(throws: WriteError.cannotCreateFolder(path: file, errno: ENOTDIR)) {
            _ = try StagedOutput(target: file + "/map.png", kind: .file)
        }
    }
}
