// The web map of quakemap: MapLibre GL JS over vector tiles: the land and plate boundaries,
// and the events, clustered where a tile would hold too many (the server clusters; every event
// is counted). The circles are the maps' own (web/config.json gives their sizes and colours).
// On a quakemap server it filters (CQL2) and windows time on the server, and hears of each new
// or revised event the moment it is ingested (Server-Sent Events, /collections/quakes/changes).
// As a static site (web/config.json names archives) it reads PMTiles archives by range requests.
// The view lives in the URL's fragment (#map=zoom/lat/lon&filter=…&window=…&color=…).
"use strict";

(async function () {
  const WINDOWS = { hour: 3600e3, day: 86400e3, week: 7 * 86400e3, all: null };
  const COLORINGS = ["magnitude", "depth", "alert"];
  const form = document.getElementById("controls");
  const filterBox = document.getElementById("filter");
  const windowChoice = document.getElementById("window");
  const colorChoice = document.getElementById("color");
  const count = document.getElementById("count");
  const problem = document.getElementById("problem");
  const updated = document.getElementById("updated");
  // Where the page is: the server's paths and a site's archives are relative to it. Tile URLs are
  // joined as text: URL() would escape their {z}/{x}/{y}.
  const base = new URL(".", location.href).href;

  let config;
  try {
    config = await getJSON("web/config.json");
  } catch (error) {
    return showProblem("The map's settings could not be read: " + error.message);
  }
  const isStatic = Boolean(config.archive);
  document.body.classList.toggle("static", isStatic);
  let view = readFragment();
  let newest = null;   // the newest event's time (ms), which the windows count back from
  let stamp = "";      // the last change heard of: asks again for every tile when it moves
  let fresh = 0;       // events new since the page opened
  const arrivals = []; // their features, ringed on the map
  let heard = null;    // when the server was last heard from

  const probe = document.createElement("canvas");
  if (!(probe.getContext("webgl2") || probe.getContext("webgl"))) {
    return showProblem("This browser cannot draw the map: it needs WebGL.");
  }
  if (isStatic) maplibregl.addProtocol("pmtiles", QuakePMTiles.protocol);
  const map = new maplibregl.Map({
    container: "map", style: style(), center: [view.lon, view.lat], zoom: view.zoom,
    minZoom: 0, maxZoom: config.maximumZoom, renderWorldCopies: true, dragRotate: false, pitchWithRotate: false,
    attributionControl: { compact: false },
  });
  map.touchZoomRotate.disableRotation();
  // For scripts that drive the page (and its tests): the map itself.
  window.quakemap = { map };
  map.addControl(new maplibregl.NavigationControl({ showCompass: false }), "top-left");
  map.on("styleimagemissing", (event) => drawCount(event.id));
  map.on("error", (event) => {
    // A tile the server refused (a filter it cannot read is shown by the count already) or a lost connection.
    if (event.error && event.error.status !== 400) console.warn(event.error.message || event.error);
  });

  filterBox.value = view.filter;
  windowChoice.value = view.window;
  colorChoice.value = view.color;

  // MARK: The style

  function style() {
    const quakes = isStatic
      ? { type: "vector", url: "pmtiles://" + new URL(config.archive, base).href }
      : { type: "vector", tiles: [eventTiles()], minzoom: 0, maxzoom: config.eventsMaximumZoom };
    const land = isStatic
      ? { type: "vector", url: "pmtiles://" + new URL(config.basemapArchive, base).href }
      : { type: "vector", tiles: [base + "tiles/basemap/{z}/{x}/{y}.mvt"], minzoom: 0, maxzoom: config.landMaximumZoom };
    // A site's archives credit their data in their own metadata; a server's page is told here.
    if (config.attribution) quakes.attribution = config.attribution;
    return {
      version: 8,
      sources: { land, quakes, fresh: { type: "geojson", data: { type: "FeatureCollection", features: [] } } },
      layers: [
        { id: "sea", type: "background", paint: { "background-color": "#1e2a38" } },
        { id: "land", type: "fill", source: "land", "source-layer": "land", paint: { "fill-color": "#4b5563" } },
        { id: "plates", type: "line", source: "land", "source-layer": "plates",
          paint: { "line-color": "#d9a066", "line-width": ["interpolate", ["linear"], ["zoom"], 0, 0.6, 6, 1.4], "line-opacity": 0.75 } },
        { id: "events", type: "circle", source: "quakes", "source-layer": "quakes", filter: ["!", ["has", "point_count"]],
          paint: { "circle-radius": radius(["get", "mag"]), "circle-color": colour(view.color, "mag") } },
        { id: "clusters", type: "circle", source: "quakes", "source-layer": "quakes", filter: ["has", "point_count"],
          paint: {
            "circle-radius": ["max", radius(["get", "max_mag"]), ["+", 9, ["*", 3, ["log10", ["get", "point_count"]]]]],
            "circle-color": colour(view.color, "max_mag"), "circle-stroke-color": "#ffffff", "circle-stroke-width": 1.5,
          } },
        { id: "cluster-counts", type: "symbol", source: "quakes", "source-layer": "quakes", filter: ["has", "point_count"],
          layout: { "icon-image": ["concat", "count-", ["to-string", ["get", "point_count_abbreviated"]]],
                    "icon-allow-overlap": true, "icon-ignore-placement": true } },
        { id: "fresh", type: "circle", source: "fresh",
          paint: { "circle-radius": ["+", radius(["get", "mag"]), 5], "circle-color": "rgba(0, 0, 0, 0)",
                   "circle-stroke-color": "#ffffff", "circle-stroke-width": 2.5 } },
      ],
    };
  }

  // A circle's radius in pixels: half the maps' diameter, sampled by magnitude.
  function radius(magnitude) {
    const stops = config.magnitudes.flatMap(([m, diameter]) => [m, diameter / 2]);
    return ["interpolate", ["linear"], ["coalesce", magnitude, 0], ...stops];
  }

  // The fill by what the colour tells: magnitude (the maps' yellow to red), depth bands, PAGER alert.
  function colour(coloring, magnitudeProperty) {
    if (coloring === "depth") {
      const bands = config.depthBands;
      const steps = bands.slice(0, -1).flatMap((band, index) => [band.upperBound, bands[index + 1].color]);
      return ["step", ["coalesce", ["get", "depth"], 0], bands[0].color, ...steps];
    }
    if (coloring === "alert") {
      const [none, ...levels] = config.alertBands;
      return ["match", ["coalesce", ["get", "alert"], ""], ...levels.flatMap((band) => [band.label, band.color]), none.color];
    }
    const stops = config.magnitudes.flatMap(([m, , fill]) => [m, fill]);
    return ["interpolate", ["linear"], ["coalesce", ["get", magnitudeProperty], 0], ...stops];
  }

  // A cluster's count, drawn once per text as an image: no glyph server (the page works offline).
  function drawCount(id) {
    if (!id.startsWith("count-")) return;
    const text = id.slice(6), ratio = window.devicePixelRatio || 1;
    const canvas = document.createElement("canvas");
    const context = canvas.getContext("2d");
    const font = `bold ${11 * ratio}px "DejaVu Sans", system-ui, sans-serif`;
    context.font = font;
    const width = Math.ceil(context.measureText(text).width + 4 * ratio), height = Math.ceil(14 * ratio);
    canvas.width = width;
    canvas.height = height;
    context.font = font;
    context.textAlign = "center";
    context.textBaseline = "middle";
    context.lineWidth = 3 * ratio;
    context.strokeStyle = "rgba(17, 24, 32, 0.9)";
    context.strokeText(text, width / 2, height / 2);
    context.fillStyle = "#ffffff";
    context.fillText(text, width / 2, height / 2);
    if (!map.hasImage(id)) map.addImage(id, context.getImageData(0, 0, width, height), { pixelRatio: ratio });
  }

  // MARK: What is asked of the server

  // The filter and the window, as the tiles, the count and the changes ask for them.
  function query() {
    const parameters = new URLSearchParams();
    if (view.filter.trim()) parameters.set("filter", view.filter);
    const span = WINDOWS[view.window];
    if (span && newest !== null) parameters.set("datetime", new Date(newest - span).toISOString() + "/..");
    return parameters;
  }

  function eventTiles() {
    const parameters = query();
    parameters.set("f", "mvt");
    if (stamp) parameters.set("v", stamp);
    return base + "collections/quakes/tiles/WebMercatorQuad/{z}/{y}/{x}?" + parameters;
  }

  // The count and the tiles of the filter and window shown; false when the server refuses the filter.
  async function refresh() {
    if (isStatic) return showArchive();
    const reply = await fetch(base + "count?" + query(), { cache: "no-cache" });
    const body = await reply.json();
    if (!reply.ok) {
      showProblem(body.detail || reply.statusText);
      return false;
    }
    problem.hidden = true;
    const suffix = view.window === "all" ? "" : " in the " + windowChoice.selectedOptions[0].text.toLowerCase();
    // A count from a large catalogue may stop early: "more than".
    const exact = body.numberMatched !== null && body.numberMatched !== undefined;
    const shown = exact ? body.numberMatched : body.atLeast - 1;
    count.textContent = (exact ? "" : "More than ") + shown.toLocaleString("en") + (shown === 1 ? " event" : " events") + suffix;
    count.dataset.matched = exact ? String(shown) : "";
    const source = map.getSource("quakes");
    if (source) source.setTiles([eventTiles()]);
    return true;
  }

  // A static site: what the archive says of itself.
  async function showArchive() {
    const about = await (await QuakePMTiles.archive(new URL(config.archive, base).href)).metadata();
    count.textContent = about.description || about.name || config.archive;
    updated.textContent = "From the archive " + config.archive + " (no server: no filter, no live changes)";
    return true;
  }

  async function newestTime() {
    const collection = await getJSON(base + "collections/quakes");
    const interval = collection.extent && collection.extent.temporal && collection.extent.temporal.interval[0];
    return interval && interval[1] ? Date.parse(interval[1]) : null;
  }

  // MARK: Changes as they happen

  let changes = null, pending = [], flushing = null, reloading = false;

  // One stream per filter: the server sends only the events it admits (reloads and heartbeats to all).
  function listen() {
    if (changes) changes.close();
    const parameters = new URLSearchParams();
    if (view.filter.trim()) parameters.set("filter", view.filter);
    changes = new EventSource(base + "collections/quakes/changes" + (parameters.size ? "?" + parameters : ""));
    changes.onopen = () => hear();
    changes.onerror = () => showHeard(false);
    const change = (event) => {
      hear(event.lastEventId);
      try {
        pending.push({ kind: event.type, feature: JSON.parse(event.data) });
      } catch (error) {
        return;
      }
      later();
    };
    changes.addEventListener("create", change);
    changes.addEventListener("update", change);
    changes.addEventListener("reload", (event) => { hear(event.lastEventId); reloading = true; later(); });
    changes.addEventListener("heartbeat", () => hear());
  }

  function hear(lastEventId) {
    heard = new Date();
    if (lastEventId) stamp = lastEventId;
    showHeard(true);
  }

  // An ingest arrives as a burst of events: the tiles and the count are asked for once it is
  // over, each page at its own moment within a second, so that thousands of pages do not ask
  // the same instant (a cache in front answers most of them).
  function later() {
    clearTimeout(flushing);
    flushing = setTimeout(flush, 150 + Math.random() * 850);
  }

  async function flush() {
    const batch = pending;
    pending = [];
    if (reloading) {
      // What changed is not known event by event: the window's end is read again too.
      reloading = false;
      newest = await newestTime().catch(() => newest);
    }
    for (const { kind, feature } of batch) {
      const time = Date.parse(feature.properties.time);
      if (Number.isFinite(time)) newest = newest === null ? time : Math.max(newest, time);
      if (kind === "create" && feature.properties.mag !== null && feature.properties.mag !== undefined) {
        // The id among the properties, as the tiles carry it (MapLibre keeps only numeric feature ids).
        arrivals.push({ ...feature, properties: { ...feature.properties, id: feature.id } });
        fresh += 1;
      }
    }
    map.getSource("fresh").setData({ type: "FeatureCollection", features: arrivals });
    await refresh();
    showHeard(true);
  }

  // "Live · last heard 12:34:56 UTC" and how many arrived since the page opened.
  function showHeard(live) {
    const at = heard ? heard.toISOString().slice(11, 19) + " UTC" : "not yet";
    updated.textContent = (live ? "Live" : "Reconnecting") + " · last heard " + at
      + (fresh ? ` · ${fresh} new since you opened this page` : "");
    updated.classList.toggle("offline", !live);
    updated.dataset.fresh = String(fresh);
    updated.dataset.stamp = stamp;
  }

  // MARK: Clicks

  map.on("click", "clusters", (event) => {
    const cluster = event.features[0];
    const zoom = Math.min(Number(cluster.properties.expansion_zoom) || map.getZoom() + 2, config.maximumZoom);
    map.easeTo({ center: cluster.geometry.coordinates, zoom });
  });
  map.on("click", "events", (event) => {
    // The smallest circle under the click: it is drawn on top.
    const feature = event.features.reduce((best, next) =>
      (next.properties.mag ?? 0) < (best.properties.mag ?? 0) ? next : best);
    new maplibregl.Popup({ maxWidth: "22rem" }).setLngLat(feature.geometry.coordinates).setDOMContent(describe(feature)).addTo(map);
  });
  for (const layer of ["clusters", "events"]) {
    map.on("mouseenter", layer, () => { map.getCanvas().style.cursor = "pointer"; });
    map.on("mouseleave", layer, () => { map.getCanvas().style.cursor = ""; });
  }

  // Every field the tile carries, built from elements (never from HTML text: places come from the feed).
  function describe(feature) {
    const p = { ...feature.properties };
    const box = document.createElement("div");
    box.className = "quake-popup";
    const title = document.createElement("strong");
    title.textContent = p.mag === undefined ? "No magnitude" : `M ${Number(p.mag).toFixed(1)}${p.magType ? " " + p.magType : ""}`;
    box.append(title);
    const place = document.createElement("div");
    place.textContent = p.place || "(no place given)";
    box.append(place);
    const list = document.createElement("dl");
    const row = (name, value) => {
      if (value === undefined || value === null || value === "") return;
      const term = document.createElement("dt");
      term.textContent = name;
      const definition = document.createElement("dd");
      if (value instanceof Node) definition.append(value); else definition.textContent = value;
      list.append(term, definition);
    };
    const utc = (ms) => new Date(Number(ms)).toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");
    if (p.time !== undefined) {
      row("Time (UTC)", utc(p.time));
      row("Local time", new Date(Number(p.time)).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "long" }));
    }
    row("Depth", p.depth === undefined ? "unknown" : `${Number(p.depth).toFixed(1)} km`);
    row("Type", p.type || "earthquake");
    row("Status", p.status);
    row("Network", p.net);
    row("PAGER alert", p.alert);
    if (p.tsunami !== undefined) row("Tsunami flag", Number(p.tsunami) ? "yes" : "no");
    if (p.strike !== undefined) row("Strike / dip / rake", `${p.strike}° / ${p.dip}° / ${p.rake}°`);
    if (p.updated !== undefined) row("Updated", utc(p.updated));
    row("Id", p.id);
    if (typeof p.url === "string" && /^https?:\/\//.test(p.url)) {
      const link = document.createElement("a");
      link.href = p.url;
      link.textContent = "Event page";
      link.target = "_blank";
      link.rel = "noopener noreferrer";
      row("More", link);
    }
    const shown = new Set(["mag", "magType", "place", "time", "depth", "type", "status", "net", "alert", "tsunami",
                           "strike", "dip", "rake", "updated", "id", "url"]);
    for (const [name, value] of Object.entries(p)) if (!shown.has(name)) row(name, String(value));
    box.append(list);
    return box;
  }

  // MARK: The view in the link, and the controls

  function readFragment() {
    const fragment = new URLSearchParams(location.hash.slice(1));
    const [zoom, lat, lon] = (fragment.get("map") || "").split("/").map(Number);
    const ok = [zoom, lat, lon].every(Number.isFinite);
    return {
      zoom: ok ? zoom : 1.5, lat: ok ? lat : 20, lon: ok ? lon : 0,
      filter: isStatic ? "" : fragment.get("filter") || "",
      window: !isStatic && fragment.get("window") in WINDOWS ? fragment.get("window") : "all",
      color: COLORINGS.includes(fragment.get("color")) ? fragment.get("color") : config.coloring,
    };
  }

  function writeFragment() {
    const center = map.getCenter().wrap();
    const rest = new URLSearchParams();
    if (view.filter) rest.set("filter", view.filter);
    if (view.window !== "all") rest.set("window", view.window);
    if (view.color !== config.coloring) rest.set("color", view.color);
    // The position written plainly (URLSearchParams would escape its slashes).
    const position = [Number(map.getZoom().toFixed(2)), center.lat.toFixed(4), center.lng.toFixed(4)].join("/");
    history.replaceState(null, "", "#map=" + position + (rest.size ? "&" + rest : ""));
  }

  function recolour() {
    map.setPaintProperty("events", "circle-color", colour(view.color, "mag"));
    map.setPaintProperty("clusters", "circle-color", colour(view.color, "max_mag"));
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const previous = view;
    view = { ...view, filter: filterBox.value.trim(), window: windowChoice.value };
    if (await refresh()) {
      writeFragment();
      if (previous.filter !== view.filter) listen();
    } else {
      view = previous;
    }
  });
  windowChoice.addEventListener("change", () => form.requestSubmit());
  colorChoice.addEventListener("change", () => {
    view = { ...view, color: colorChoice.value };
    recolour();
    writeFragment();
  });
  map.on("moveend", writeFragment);
  window.addEventListener("hashchange", async () => {
    const previous = view;
    view = readFragment();
    filterBox.value = view.filter;
    windowChoice.value = view.window;
    colorChoice.value = view.color;
    map.jumpTo({ center: [view.lon, view.lat], zoom: view.zoom });
    recolour();
    await refresh();
    if (previous.filter !== view.filter && !isStatic) listen();
  });

  function showProblem(text) {
    problem.textContent = text;
    problem.hidden = false;
    count.textContent = "";
  }

  async function getJSON(path) {
    // Revalidated every time (a 304 while it stands): a stale copy would show an old catalogue.
    const reply = await fetch(path, { cache: "no-cache" });
    if (!reply.ok) throw new Error(`${path}: ${reply.status}`);
    return reply.json();
  }

  // MARK: Start

  await new Promise((resolve) => map.once("load", resolve));
  if (!isStatic) {
    newest = await newestTime();
    if (!(await refresh())) {
      // A shared link with a filter the server refuses: show the problem, draw everything.
      const refused = problem.textContent;
      view = { ...view, filter: "" };
      await refresh();
      showProblem(refused);
    }
    listen();
  } else {
    await refresh();
  }
  writeFragment();
  map.once("idle", () => { document.body.dataset.ready = "true"; });
  map.triggerRepaint();
})();
