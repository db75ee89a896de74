"""The web table (`hoc serve`): a local web app to play a game against agents, step through a
replay and look at a run's or a study's results in the browser.

The layer is a front end only: it plays through `Game` and the replay's `Teller` (the same view as
`hoc play`, the feed in the replay's words, games saved as `hoc replay` reads them), and reads runs
through `hoc.research`. Modules: `tables` (the games being played), `replays` (a replay's frames),
`results` (runs and study folders), `studies` (studies started from the page) and `jobs` (their thread),
`files` (which files the server may read), `store` (games and replays kept by id), `errors` (the 4xx refusals), `api` (the HTTP routes), `app` (the application
and its error answers), `server` (uvicorn), `browser` (the system's Chromium for the tests and
screenshots). The pages are plain HTML, CSS and JavaScript in `static/`, shipped with the package
(no CDN, no build step).
"""
