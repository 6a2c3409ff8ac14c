"""Every lesson runs top to bottom in JupyterLab in headless Chromium, as a learner opens it.

Each lesson (a fresh copy without stored outputs) gets Run All; every cell must finish without a
traceback, and the page is saved to artifacts/browser/lesson_<nn>.png. Lessons 00 and 04 are also
driven widget by widget in test_lab_views.py and test_lab_step_through.py.
"""
from pathlib import Path

import pytest
from test_lab_step_through import ROOT, SCREENSHOT, lesson_page

LESSONS = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


@pytest.mark.browser
@pytest.mark.parametrize("lesson", LESSONS)
def test_lesson_runs_in_the_browser(tmp_path, lesson):
    with lesson_page(tmp_path, lesson) as page:
        shot = SCREENSHOT.with_name(f"lesson_{Path(lesson).stem.split('_')[0]}.png")
        page.screenshot(path=str(shot))
        assert page.locator(".jp-CodeCell").count() > 0
