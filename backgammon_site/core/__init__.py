"""The toolkit every app shares: refusals and their one shape in the API, the API's fields and
pagination, HTTP caching, path converters, the resilient cache, the read-only admin, the web push
keys and the variants as the site offers them. It imports no app (the engine's list of variants
aside: a pure package); the rest of backgammon_site is the wiring that imports the apps."""
