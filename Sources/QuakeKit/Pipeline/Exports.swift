// QuakeKit is the one library programs import: it brings every stage's API with it.
@_exported import QuakeModel
@_exported import QuakeParse
@_exported import QuakeQuery
@_exported import QuakeGeo
@_exported import QuakeScene
@_exported import QuakeRender
@_exported import QuakeWrite
