// libFuzzer entry: SwiftPM generates `main` for an executable target, which
// shadows libFuzzer's own, so this `main` hands control to libFuzzer through
// LLVMFuzzerRunDriver. The callback is a non-capturing closure (a C function
// pointer); the work is in Harness.swift.
import FuzzerDriver
#if canImport(Glibc)
import Glibc
#endif
import Foundation

var arguments = CommandLine.argc
var argumentVector: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&arguments, &argumentVector) { data, size in
    Harness.run(data.map { Data(bytes: $0, count: size) } ?? Data())
    return 0
})
