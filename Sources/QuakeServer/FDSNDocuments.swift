import Foundation
import QuakeKit

/// The FDSN event service's small documents: its WADL (which clients such as ObsPy read to
/// learn the parameters), the lists of catalogues and contributors, and the error text.
enum FDSNDocuments {
    /// The service description (WADL 2009/02), every parameter with its type, the choices of
    /// `orderby`, `format` and `nodata`, and the answers each resource gives.
    static func wadl(base: String) -> String {
        let escaped = QuakeMLEncoder.escaped
        let choices: [String: (default: String, values: [String])] = [
            "orderby": ("time", FDSNEventQuery.Order.allCases.map(\.rawValue)),
            "format": ("xml", FDSNEventQuery.Format.allCases.map(\.rawValue)),
            "nodata": ("204", ["204", "404"]),
            "includeallorigins": ("false", []), "includeallmagnitudes": ("false", []), "includearrivals": ("false", []),
        ]
        func parameters(counting: Bool) -> String {
            FDSNEventQuery.parameters.filter { !counting || !["orderby", "limit", "offset"].contains($0.name) }.map { parameter in
                var line = "          <param name=\"\(parameter.name)\" style=\"query\" type=\"\(parameter.type)\""
                guard let choice = choices[parameter.name] else { return line + "/>\n" }
                line += " default=\"\(choice.default)\""
                guard !choice.values.isEmpty else { return line + "/>\n" }
                return line + ">\n" + choice.values.map { "            <option value=\"\($0)\"/>\n" }.joined() + "          </param>\n"
            }.joined()
        }
        let errors = """
                <response status="204 400 404 413 500 503">
                  <representation mediaType="text/plain"/>
                </response>

        """
        func simple(_ path: String, _ type: String) -> String {
            """
                <resource path="\(path)">
                  <method name="GET">
                    <response status="200"><representation mediaType="\(type)"/></response>
                  </method>
                </resource>

            """
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <application xmlns="http://wadl.dev.java.net/2009/02" xmlns:xs="http://www.w3.org/2001/XMLSchema">
              <doc title="quakemap FDSN event web service 1.2"/>
              <resources base="\(escaped(base))">
                <resource path="query">
                  <method id="query" name="GET">
                    <request>
            \(parameters(counting: false))        </request>
                    <response status="200">
                      <representation mediaType="application/xml"/>
                      <representation mediaType="text/plain"/>
                      <representation mediaType="application/geo+json"/>
                    </response>
            \(errors)      </method>
                </resource>
                <resource path="count">
                  <method id="count" name="GET">
                    <request>
            \(parameters(counting: true))        </request>
                    <response status="200"><representation mediaType="text/plain"/></response>
            \(errors)      </method>
                </resource>
            \(simple("catalogs", "application/xml"))\(simple("contributors", "application/xml"))\(simple("version", "text/plain"))\(simple("application.wadl", "application/xml"))  </resources>
            </application>

            """
    }

    /// `<Catalogs><Catalog>…</Catalog>…</Catalogs>` (or contributors), as FDSN services list them.
    static func names(_ names: [String], element: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<\(element)s>\n"
            + names.map { "  <\(element)>\(QuakeMLEncoder.escaped($0))</\(element)>\n" }.joined() + "</\(element)s>\n"
    }

    /// The error body the specification words: the code and its phrase, the detail, where the
    /// usage is described, the request, when it came, and the service's version.
    static func error(_ failure: FDSNFailure, url: String, documentation: String, version: String) -> String {
        let phrase = HTTPPhrase.phrase(failure.status)
        return """
            Error \(failure.status): \(phrase)

            \(failure.detail)

            Usage details are available from \(documentation)

            Request:
            \(url)

            Request Submitted:
            \(CivilTime.iso8601(Date()))

            Service version:
            \(version)

            """
    }
}

/// The reason phrases of the statuses the service answers with.
private enum HTTPPhrase {
    static func phrase(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 404: "Not Found"
        case 413: "Request Entity Too Large"
        case 503: "Service Unavailable"
        default: status >= 500 ? "Internal Server Error" : "Error"
        }
    }
}
