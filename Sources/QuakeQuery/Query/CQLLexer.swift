import QuakeModel

/// The tokens of CQL2 text.
package struct CQLToken: Equatable {
    package enum Kind: Equatable {
        case identifier(String)      // a property, keyword or function name
        case quotedIdentifier(String) // "a property"
        case string(String)
        case number(Double)
        case symbol(String)           // ( ) , = <> < <= > >= + - * / %
        case end
    }

    package let kind: Kind
    /// 1-based column of the first character.
    package let column: Int

    /// How messages show the token.
    package var shown: String {
        switch kind {
        case .identifier(let name): return "'\(name)'"
        case .quotedIdentifier(let name): return "'\"\(name)\"'"
        case .string(let text): return "'\(text)'"
        case .number(let value): return "'\(value)'"
        case .symbol(let symbol): return "'\(symbol)'"
        case .end: return "the end"
        }
    }
}

/// Splits CQL2 text into tokens, keeping each one's column.
package enum CQLLexer {
    package static let maximumLength = 65_536

    package static func tokens(_ text: String) throws -> [CQLToken] {
        let characters = Array(text)
        guard characters.count <= maximumLength else {
            throw CQLError(column: maximumLength, reason: "the expression is longer than \(maximumLength) characters")
        }
        var tokens: [CQLToken] = []
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let column = index + 1
            if character.isWhitespace {
                index += 1
            } else if character == "'" || character == "\"" {
                // Both quotes double themselves to escape: 'it''s', "odd""name".
                var value = ""
                index += 1
                var closed = false
                while index < characters.count {
                    if characters[index] == character {
                        if index + 1 < characters.count, characters[index + 1] == character {
                            value.append(character)
                            index += 2
                            continue
                        }
                        closed = true
                        index += 1
                        break
                    }
                    value.append(characters[index])
                    index += 1
                }
                guard closed else {
                    throw CQLError(column: column, reason: character == "'" ? "a string opened here is never closed"
                                                                            : "a quoted name opened here is never closed")
                }
                tokens.append(CQLToken(kind: character == "'" ? .string(value) : .quotedIdentifier(value), column: column))
            } else if character.isASCII && (character.isNumber || (character == "." && index + 1 < characters.count
                                                                   && characters[index + 1].isASCII && characters[index + 1].isNumber)) {
                var end = index
                while end < characters.count, characters[end].isASCII, characters[end].isNumber || characters[end] == "." { end += 1 }
                if end < characters.count, characters[end] == "e" || characters[end] == "E" {
                    var exponentEnd = end + 1
                    if exponentEnd < characters.count, characters[exponentEnd] == "+" || characters[exponentEnd] == "-" { exponentEnd += 1 }
                    if exponentEnd < characters.count, characters[exponentEnd].isASCII, characters[exponentEnd].isNumber {
                        end = exponentEnd
                        while end < characters.count, characters[end].isASCII, characters[end].isNumber { end += 1 }
                    }
                }
                let literal = String(characters[index..<end])
                guard end - index <= 64, let value = Double(literal), value.isFinite else {
                    throw CQLError(column: column, reason: "'\(literal.prefix(40))' is not a number")
                }
                tokens.append(CQLToken(kind: .number(value), column: column))
                index = end
            } else if character.isLetter || character == "_" {
                var end = index
                while end < characters.count, characters[end].isLetter || characters[end].isNumber || characters[end] == "_"
                    || characters[end] == ":" || characters[end] == "." { end += 1 }
                tokens.append(CQLToken(kind: .identifier(String(characters[index..<end])), column: column))
                index = end
            } else {
                let pair = index + 1 < characters.count ? String(characters[index...index + 1]) : ""
                if ["<>", "<=", ">=", "!="].contains(pair) {
                    tokens.append(CQLToken(kind: .symbol(pair == "!=" ? "<>" : pair), column: column))
                    index += 2
                } else if "(),=<>+-*/%".contains(character) {
                    tokens.append(CQLToken(kind: .symbol(String(character)), column: column))
                    index += 1
                } else {
                    throw CQLError(column: column, reason: "unexpected character '\(character)'")
                }
            }
        }
        tokens.append(CQLToken(kind: .end, column: characters.count + 1))
        return tokens
    }
}
