// The web map of quakemap-server: Leaflet over the server's own land tiles and
// event tiles, a CQL2 filter box, a time window and a count; the view lives in
// the URL's fragment (#map=zoom/lat/lon&filter=…&window=…) so it can be shared.
// It follows the catalogue by itself: a poll of /version (cheap, and cacheable
// by a cache in front) redraws the events when it changes, rings what is new
// and says when it last changed.
"use strict";

(async function () {
  const WINDOWS = { hour: 3600e3, day: 86400e3, week: 7 * 86400e3, all: null };
  const form = document.getElementById("controls");
  const filterBox = document.getElementById("filter");
  const windowChoice = document.getElementById("window");
  const count = document.getElementById("count");
  const problem = document.getElementById("problem");
  const updated = document.getElementById("updated");

  const config = await getJSON("/web/config.json");
  let view = readFragment();
  let version = null;   // the catalogue version the layers show
  let newest = null;    // the newest event's time, which the windows count back from
  let fresh = 0;        // events new since the page opened

  const map = L.map("map", { worldCopyJump: true, minZoom: 1, maxZoom: config.maximumZoom })
    .setView([view.lat, view.lon], view.zoom);
  L.tileLayer("/tiles/land/{z}/{x}/{y}.png", {
    maxNativeZoom: config.landMaximumZoom, maxZoom: config.maximumZoom,
    attribution: 'Land: <a href="https://www.naturalearthdata.com/">Natural Earth</a>',
  }).addTo(map);
  const events = L.tileLayer("", { maxZoom: config.maximumZoom, attribution: config.attribution }).addTo(map);
  // Rings around the events that arrived while the page was open, newest drawn last.
  const arrivals = L.layerGroup().addTo(map);

  filterBox.value = view.filter;
  windowChoice.value = view.window;

  // What the layers, the count and the clicks ask for: the filter and the window.
  function query() {
    const parameters = new URLSearchParams();
    if (view.filter.trim()) parameters.set("filter", view.filter);
    const span = WINDOWS[view.window];
    if (span && newest !== null) parameters.set("datetime", new Date(newest - span).toISOString() + "/..");
    return parameters;
  }

  async function refresh() {
    const current = await getJSON("/version");
    newest = current.newest ? Date.parse(current.newest) : null;
    const parameters = query();
    // The version in the query: a cache in front never answers for another catalogue.
    const counted = new URLSearchParams(parameters);
    counted.set("v", current.version);
    const reply = await fetch("/count?" + counted, { cache: "no-cache" });
    const body = await reply.json();
    if (!reply.ok) {
      problem.textContent = body.detail || reply.statusText;
      problem.hidden = false;
      return false;
    }
    problem.hidden = true;
    const suffix = view.window === "all" ? "" : " in the " + windowChoice.selectedOptions[0].text.toLowerCase();
    // A count from a large catalogue may stop early: "more than".
    const shown = body.numberMatched ?? body.atLeast - 1;
    count.textContent = (body.numberMatched === null || body.numberMatched === undefined ? "More than " : "")
      + shown.toLocaleString("en") + (shown === 1 ? " event" : " events") + suffix;
    count.dataset.matched = body.numberMatched ?? "";
    version = current.version;
    showUpdated(current);
    // The version asks again for every tile once the catalogue changes.
    parameters.set("v", version);
    events.setUrl("/tiles/{z}/{x}/{y}.png?" + parameters);
    return true;
  }

  function readFragment() {
    const fragment = new URLSearchParams(location.hash.slice(1));
    const [zoom, lat, lon] = (fragment.get("map") || "").split("/").map(Number);
    const ok = [zoom, lat, lon].every(Number.isFinite);
    return {
      zoom: ok ? zoom : 2, lat: ok ? lat : 20, lon: ok ? lon : 0,
      filter: fragment.get("filter") || "",
      window: fragment.get("window") in WINDOWS ? fragment.get("window") : "all",
    };
  }

  function writeFragment() {
    const center = map.getCenter().wrap();
    const rest = new URLSearchParams();
    if (view.filter) rest.set("filter", view.filter);
    if (view.window !== "all") rest.set("window", view.window);
    // The position written plainly (URLSearchParams would escape its slashes).
    const position = [map.getZoom(), center.lat.toFixed(4), center.lng.toFixed(4)].join("/");
    history.replaceState(null, "", "#map=" + position + (rest.size ? "&" + rest : ""));
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const previous = view;
    view = { ...view, filter: filterBox.value.trim(), window: windowChoice.value };
    if (await refresh()) writeFragment(); else view = previous;
  });
  windowChoice.addEventListener("change", () => form.requestSubmit());
  map.on("moveend", writeFragment);
  window.addEventListener("hashchange", async () => {
    view = readFragment();
    filterBox.value = view.filter;
    windowChoice.value = view.window;
    map.setView([view.lat, view.lon], view.zoom);
    await refresh();
  });

  // A click shows the event under it: the smallest circle that holds the
  // point (it is drawn on top), else the nearest within a few pixels.
  map.on("click", async (event) => {
    const reach = 40;
    const point = event.containerPoint;
    const corner = (dx, dy) => map.containerPointToLatLng(point.add([dx, dy])).wrap();
    const southWest = corner(-reach, reach), northEast = corner(reach, -reach);
    const parameters = query();
    parameters.set("bbox", [southWest.lng, Math.max(-90, southWest.lat), northEast.lng, Math.min(90, northEast.lat)]
      .map((value) => value.toFixed(5)).join(","));
    parameters.set("limit", "500");
    const reply = await fetch("/collections/quakes/items?" + parameters);
    if (!reply.ok) return;
    let best = null;
    for (const feature of (await reply.json()).features) {
      const [lon, lat] = feature.geometry.coordinates;
      // The copy of the event nearest the click, on a map that repeats the world.
      const turns = Math.round((event.latlng.lng - lon) / 360);
      const at = map.latLngToContainerPoint([lat, lon + 360 * turns]);
      const distance = at.distanceTo(point);
      const radius = diameter(feature.properties.mag) / 2;
      const inside = distance <= radius + 1;
      if (!inside && distance > 6) continue;
      const rank = inside ? radius : 1e6 + distance;
      if (best === null || rank < best.rank) best = { rank, feature, latlng: [lat, lon + 360 * turns] };
    }
    if (best) L.popup().setLatLng(best.latlng).setContent(describe(best.feature)).openOn(map);
  });

  function diameter(magnitude) {
    const m = Math.max(magnitude ?? 0, 0);
    return Math.max(0.75 * m * m * config.symbolScale, config.minimumDiameter);
  }

  // Built from elements, never from HTML text: places come from the feed.
  function describe(feature) {
    const p = feature.properties;
    const box = document.createElement("div");
    box.className = "quake-popup";
    const title = document.createElement("strong");
    title.textContent = p.mag === null ? "No magnitude" : `M ${p.mag.toFixed(1)}${p.magType ? " " + p.magType : ""}`;
    box.append(title);
    const place = document.createElement("div");
    place.className = "place";
    place.textContent = p.place || "(no place given)";
    box.append(place);
    const list = document.createElement("dl");
    const time = new Date(p.time);
    const rows = [
      ["Time (UTC)", time.toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC")],
      ["Local time", time.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "long" })],
      ["Depth", p.depth === null || p.depth === undefined ? "unknown" : `${p.depth.toFixed(1)} km`],
      ["Type", p.type || "earthquake"],
      ["Id", feature.id],
    ];
    for (const [name, value] of rows) {
      const term = document.createElement("dt");
      term.textContent = name;
      const definition = document.createElement("dd");
      definition.textContent = value;
      list.append(term, definition);
    }
    box.append(list);
    return box;
  }

  // "Updated 12:34:56 UTC" (the catalogue's last change) and how many arrived since the page opened.
  function showUpdated(current) {
    const at = current.updated ? new Date(current.updated) : new Date();
    updated.textContent = "Updated " + at.toISOString().slice(11, 19) + " UTC"
      + (fresh ? ` · ${fresh} new since you opened this page` : "");
    updated.dataset.version = current.version;
    updated.dataset.fresh = fresh;
  }

  // The events after `since` that the filter admits, ringed until the page is reloaded.
  async function ring(since) {
    const parameters = query();
    parameters.set("datetime", new Date(since + 1).toISOString() + "/..");
    parameters.set("limit", "500");
    const reply = await fetch("/collections/quakes/items?" + parameters, { cache: "no-cache" });
    if (!reply.ok) return;
    const features = (await reply.json()).features;
    for (const feature of features.reverse()) {
      const [lon, lat] = feature.geometry.coordinates;
      L.circleMarker([lat, lon], {
        radius: diameter(feature.properties.mag) / 2 + 5, className: "fresh", interactive: false,
      }).addTo(arrivals);
    }
    fresh += features.length;
  }

  // Revalidated every time (a 304 while it stands): a browser would otherwise show its stale copy
  // while it asks again, and the page would miss a new catalogue.
  async function getJSON(path) {
    const reply = await fetch(path, { cache: "no-cache" });
    if (!reply.ok) throw new Error(`${path}: ${reply.status}`);
    return reply.json();
  }

  // A new catalogue (a refreshed feed, an ingest) redraws the events and the count, and rings the new ones.
  setInterval(async () => {
    try {
      const current = await getJSON("/version");
      if (current.version === version) return;
      const before = newest;
      if (await refresh() && before !== null) {
        await ring(before);
        showUpdated(current);
      }
    } catch (error) {
      // The server may be restarting: try again at the next tick.
    }
  }, config.refreshSeconds * 1000);

  if (!(await refresh())) {
    // A shared link with a filter the server refuses: show the problem, draw everything.
    view = { ...view, filter: "" };
    await refresh();
    problem.hidden = false;
  }
  writeFragment();
  document.body.dataset.ready = "true";
})();
