"""Matches played elsewhere: the upload form and the replay of an imported match."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from backgammon_site.core.errors import ApplicationError, NotFound, TooManyAttempts
from games.computer.analysis import (
    analysis_limit_spend,
    analysis_request,
    engine_named,
    import_subject,
    stored_analysis,
)
from games.log.records import imported_log
from games.models import ImportedMatch
from games.services import imports as match_imports
from games.views.replay import ReplayLink, render_replay
from games.views.signed_in import SignedInRequest


class ImportForm(forms.Form):
    file = forms.FileField(
        required=False,
        label=gettext_lazy("A .mat file"),
        help_text=gettext_lazy(
            "As GNU Backgammon, eXtreme Gammon, Jellyfish and most other programs export."
        ),
    )
    text = forms.CharField(
        required=False,
        label=gettext_lazy("Or paste its text"),
        strip=False,
        help_text=gettext_lazy("Up to 60,000 characters; upload longer files instead."),
        widget=forms.Textarea(
            attrs={"rows": 12, "spellcheck": "false", "class": "mat-text", "maxlength": 60_000}
        ),
    )

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if not data.get("file") and not (data.get("text") or "").strip():
            raise forms.ValidationError(_("Choose a .mat file or paste its text."))
        return data


@require_http_methods(["GET", "POST"])
@login_required
def import_new(request: SignedInRequest) -> HttpResponse:
    form = ImportForm(request.POST or None, request.FILES or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            upload = form.cleaned_data.get("file")
            if upload is not None and upload.size > match_imports.MAX_MAT_CHARACTERS * 4:
                form.add_error("file", "This file is too large for a .mat file.")
            else:
                text = (
                    match_imports.mat_text_from_bytes(upload.read())
                    if upload is not None
                    else form.cleaned_data["text"]
                )
                try:
                    imported = match_imports.imported_match_create(
                        uploaded_by=request.user, text=text
                    )
                except ApplicationError as error:
                    form.add_error(None, error.message)
                else:
                    return redirect("import-replay", import_id=imported.pk)
        status = 400
    imports = ImportedMatch.objects.filter(uploaded_by=request.user)[:20]
    return render(
        request, "games/import_new.html", {"form": form, "imports": imports}, status=status
    )


@require_GET
def import_replay(request: HttpRequest, import_id: int) -> HttpResponse:
    imported = ImportedMatch.objects.select_related("uploaded_by").filter(pk=import_id).first()
    if imported is None:
        raise Http404("No such imported match.")
    return render_replay(
        request,
        names=imported.names,
        match_length=imported.match_length,
        cache_key=f"replay-of-import:{imported.pk}",
        load_events=lambda: imported_log(imported),
        url=reverse("import-replay", kwargs={"import_id": imported.pk}),
        links=[
            ReplayLink(
                _("Download .mat"),
                reverse("api-import-export-mat", args=[imported.pk]),
                download=True,
            ),
            ReplayLink(_("Import another"), reverse("import-new")),
        ],
        facts=_("%(length)s-point match played elsewhere, imported by %(player)s")
        % {"length": imported.match_length, "player": imported.uploaded_by.get_username()},
        players_have_profiles=False,
        analysis=stored_analysis(
            import_subject(imported.pk), engine_named(request.GET.get("engine"))
        ),
        analyse_url=reverse("import-replay-analyse", args=[imported.pk]),
    )


@login_required
@require_POST
def import_replay_analyse(request: HttpRequest, import_id: int) -> HttpResponse:
    """Ask for the imported match to be analysed (again), then back to its replay."""
    try:
        analysis_limit_spend(request, request.user)
        analysis_request(import_subject(import_id))
    except NotFound:
        raise Http404("No such imported match.") from None
    except TooManyAttempts as error:
        messages.error(request, error.message)
    return redirect("import-replay", import_id=import_id)
