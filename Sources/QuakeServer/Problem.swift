import Foundation
import Hummingbird

/// An error answer with an `application/problem+json` body (RFC 9457) that
/// says what was wrong and, for a bad query, which parameter.
package struct Problem: HTTPResponseError, Equatable {
    /// The HTTP status.
    package let status: HTTPResponse.Status
    /// What was wrong, in a sentence.
    package let detail: String
    /// The query parameter at fault, if one was.
    package let parameter: String?
    /// Seconds after which a retry may succeed (`Retry-After`), for `503`.
    package let retryAfter: Int?
    /// The methods served (`Allow`), for `405`.
    package let allow: String?

    /// A problem answer.
    package init(_ status: HTTPResponse.Status, _ detail: String, parameter: String? = nil, retryAfter: Int? = nil,
                allow: String? = nil) {
        self.status = status
        self.detail = detail
        self.parameter = parameter
        self.retryAfter = retryAfter
        self.allow = allow
    }

    /// `400 Bad Request` for a query parameter.
    static func badParameter(_ name: String, _ detail: String) -> Problem {
        Problem(.badRequest, "\(name): \(detail)", parameter: name)
    }

    /// The response.
    package func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = try JSONDocument.encoded(ProblemDocument(title: status.reasonPhrase, status: status.code, detail: detail,
                                                            parameter: parameter))
        var fields = HTTPFields()
        fields[.contentType] = "application/problem+json"
        if let retryAfter { fields[.retryAfter] = String(retryAfter) }
        if let allow { fields[.allow] = allow }
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
