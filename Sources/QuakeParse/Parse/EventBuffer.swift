import QuakeModel

/// A decoded part's events, handed over by moving each out once.
///
/// An array cannot give up an element without a copy (or a placeholder left
/// in its place, which cost more than it saved): lending the element to the
/// consumer's closure made Swift copy it, strings, reference counts and all,
/// because the closure might write to the array's memory. Moving it out
/// spares that copy and a second destruction: 4 % of the instructions of
/// reading whole events (callgrind, 100,000 rows).
///
/// A class, so that a part keeps its storage as it is copied in and out of
/// the parts array; each part has its own (never `Array(repeating:)`).
package final class EventBuffer {
    private var base = UnsafeMutablePointer<SeismicEvent>.allocate(capacity: 0)
    private var capacity = 0
    /// Events in `taken..<count` are held; those before `taken` were moved out.
    private var count = 0
    private var taken = 0

    /// How many events are held, not yet taken.
    package var remaining: Int { count - taken }

    deinit {
        removeAll()
        base.deallocate()
    }

    /// Room for `total` events without growing.
    package func reserveCapacity(_ total: Int) {
        if total > capacity { grow(to: total) }
    }

    package func append(_ event: consuming SeismicEvent) {
        if count == capacity { grow(to: max(16, capacity * 2)) }
        (base + count).initialize(to: event)
        count += 1
    }

    /// Moves the next event not yet taken out, in the order they were appended.
    package func takeNext() -> SeismicEvent {
        precondition(taken < count, "no event left to take")
        defer { taken += 1 }
        return (base + taken).move()
    }

    /// Destroys the events not taken; the storage stays.
    package func removeAll() {
        (base + taken).deinitialize(count: count - taken)
        count = 0
        taken = 0
    }

    private func grow(to total: Int) {
        let bigger = UnsafeMutablePointer<SeismicEvent>.allocate(capacity: total)
        bigger.moveInitialize(from: base + taken, count: count - taken)
        base.deallocate()
        base = bigger
        capacity = total
        count -= taken
        taken = 0
    }
}
