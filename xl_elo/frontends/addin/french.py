"""The function wizard's help in French, for LibreOffice Calc (CalcAddIns.xcu).

Keyed by the names of :data:`xl_elo.frontends.functions.FUNCTIONS` (the English help is there); a
function or argument missing here shows its English help (tests/test_addin.py checks that
none is missing). Sections are those of the rules document, docs/rules.md.
"""

from __future__ import annotations

from typing import Any

_RATING = "Le classement du joueur : une cellule ou une plage."
_OPPONENT = "Le classement de l'adversaire : une cellule ou une plage de même taille."
_AGE = "FIDE, FSE : l'âge du joueur dans l'année de la période (vide : adulte)."
_EVER_2400 = "FIDE : oui dès que le classement publié a atteint 2400 (vide : non)."
_FEDERATIONS = "FIDE, FSE, FQE, FFE ou FESA."
_SYSTEMS = "elo, ingo, bridier, bcr ou cs."

HELP: dict[str, tuple[str, dict[str, str]]] = {
    "ELO_EXPECTED": (
        "Score attendu logistique 1 / (1 + 10^((adversaire - classement) / 400)) (règles xl-elo 1.2).",
        {"rating": _RATING, "opponent_rating": _OPPONENT}),
    "FIDE_EXPECTED": (
        ("Score attendu FIDE, d'après la table de la FIDE ; un écart de plus de 400 compte pour 400 "
        "sous 2650 (règles xl-elo 2.2)."),
        {"rating": _RATING, "opponent_rating": _OPPONENT}),
    "FQE_EXPECTED": (
        ("Score attendu FQE d'un joueur permanent, d'après la table de la Fédération québécoise des échecs "
        "(règles xl-elo 4.2)."),
        {"rating": _RATING, "opponent_rating": _OPPONENT}),
    "FQE_TABLE": (
        "La table FQE des scores attendus selon l'écart de classement (règles xl-elo 4.2).",
        {"difference": "Son classement moins celui de l'adversaire : une cellule ou une plage "
                       "(148 donne 0,70 ; -148 donne 0,30)."}),
    "ELO_K": (
        "Le coefficient K de la FIDE (règles xl-elo 2.3), de la FSE (3.2), de la FQE (4.5) ou de la FESA (6.2).",
        {"federation": "FIDE, FSE, FQE ou FESA (les fédérations qui ont un coefficient K).",
         "rating": "Le classement (avant la partie pour la FESA) : une cellule ou une plage.",
         "games": "FIDE, FSE : parties classées jouées auparavant (vide : pas un nouveau joueur).",
         "age": _AGE,
         "ever_2400": _EVER_2400}),
    "ELO_CHANGE": (
        ("La variation de classement d'un joueur sur une période ou un tournoi, selon les règles d'une "
        "fédération (règles xl-elo 2 à 6)."),
        {"federation": _FEDERATIONS,
         "rating": "Le classement du joueur avant la période ou le tournoi (une cellule ; vide ou 0 : non classé).",
         "opponent_ratings": "Les classements des adversaires, un par partie (FESA : après le tournoi, dans "
                             "l'ordre des rondes).",
         "results": "Les résultats, un par partie, même taille que opponent_ratings : 1, 0,5, 0, 1-0, ½, "
                    "G/N/P ...",
         "games": "FIDE, FSE, FQE : parties classées auparavant (vide : pas nouveau, permanent). FESA : bonus "
                  "d'activité déjà reçus (vide : 0).",
         "age": _AGE,
         "ever_2400": _EVER_2400,
         "k": "Un coefficient K connu, au lieu des faits qui le décident (vide : selon les règles)."}),
    "ELO_PERFORMANCE": (
        "Une performance selon la méthode d'une fédération (règles xl-elo 2.6, 4.3, 5.3 - 5.5, 6.5).",
        {"method": "La fédération dont on veut la performance : fesa (zéro de g(x)), fqe (Cm + 400 (G - P) / n), "
                   "ffe (Ea + D(P)), fide (Ra + dp) ou fse.",
         "opponent_ratings": "Les classements des adversaires, un par partie.",
         "results": "Les résultats, un par partie, même taille que opponent_ratings.",
         "rating": "FFE : le classement du joueur, pour appliquer la fenêtre de compatibilité de 350 points "
                   "(vide ou 0 : aucune)."}),
    "FFE_DP": (
        "D(P) de la FFE, borné à +-470 (règles xl-elo 5.4).",
        {"p": "Le pourcentage marqué, de 0 à 1 : une cellule ou une plage.",
         "method": "normal (par défaut : le quantile de la loi normale) ou table (interpolation de la table "
                   "publiée)."}),
    "FFE_ROUND": (
        ("Un classement arrondi à la dizaine la plus proche, 5 vers le haut, comme la FFE le publie "
        "(règles xl-elo 5.9)."),
        {"x": "Un classement : une cellule ou une plage."}),
    "ELO_CONVERT": (
        "Conversion entre Elo, INGO, BRIDIER, BCR et CS selon les formules de la FFE (règles xl-elo 5.11).",
        {"value": "Le classement à convertir : une cellule ou une plage.",
         "from_system": _SYSTEMS,
         "to_system": _SYSTEMS}),
    "SHOGI_GRADE": (
        ("Le grade FESA dont l'intervalle LB à UB contient le classement, en texte (6 kyu, 1 dan) "
        "(règles xl-elo 6.9)."),
        {"rating": "Un classement FESA : une cellule ou une plage."}),
    "SHOGI_GRADE_BOUNDS": (
        "LB, MP, UB, #LB et #MP d'un grade FESA, sur une ligne (règles xl-elo 6.9).",
        {"grade": "Un grade FESA, par exemple 3 kyu ou 1 dan."}),
    "SHOGI_HANDICAP": (
        ("L'effet d'un handicap en points de classement, pour le classement de celui qui le donne "
        "(règles xl-elo 6.7)."),
        {"rating": "Le classement de celui qui donne le handicap : une cellule ou une plage.",
         "handicap": "S (sente), L (lance), B (fou), R (tour), RL, 2p, 4p, 5p ou 6p."}),
    "ELO_RATE": (
        ("Classe tout un tournoi ou toute une période ; renvoie le tableau des résultats avec sa ligne "
        "d'en-tête (règles xl-elo 8)."),
        {"federation": _FEDERATIONS,
         "players": "Le tableau des joueurs avec sa ligne d'en-tête (id, name, rating, games, ...).",
         "games": "Le tableau des parties avec sa ligne d'en-tête (round, player, opponent, result, ...).",
         "history": "FESA : le tableau d'historique avec sa ligne d'en-tête (id, opponent_rating, result).",
         "period": "FIDE, FSE : la période en AAAA-MM (obligatoire : les âges comptent dans son année)."}),
}


def function_help(function: Any) -> tuple[str, dict[str, str]]:
    """A function's French description and argument help (English where a text is missing)."""
    description, args = HELP.get(function.name, (function.description, {}))
    return description, {a.name: args.get(a.name, a.doc) for a in function.args}
