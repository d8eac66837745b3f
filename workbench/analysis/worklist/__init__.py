"""The worklist: a sync's findings grouped by shared cause into items decided once.

``build_worklist(analysis, facts)`` is a pure function of the analysis (and
of facts a caller found beyond it, ``WorklistFacts``): each hunk that needs
a look (undecided, losing lines, rated above low, or losing layout only)
joins exactly one item; API failures, duplicate definitions, main's files
the result lacks and policy findings make items of their own.  Ids come
from causes, so they survive line shifts and re-analysis.
"""

from workbench.analysis.worklist.build import build_worklist as build_worklist
from workbench.analysis.worklist.build import worklist_of as worklist_of
from workbench.analysis.worklist.facts import DuplicateDefinition as DuplicateDefinition
from workbench.analysis.worklist.facts import WorklistFacts as WorklistFacts
from workbench.analysis.worklist.items import Claim as Claim
from workbench.analysis.worklist.items import Decision as Decision
from workbench.analysis.worklist.items import Item as Item
from workbench.analysis.worklist.items import ItemKind as ItemKind
from workbench.analysis.worklist.items import Member as Member
from workbench.analysis.worklist.items import Worklist as Worklist
from workbench.analysis.worklist.lift import lifted as lifted
