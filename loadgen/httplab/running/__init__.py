"""Running a bench: the plan, the runner, measuring, backends and sampling."""
