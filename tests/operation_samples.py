"""One valid operation of each of the 21 types, for tests of the batch parser and the tool schemas."""

RNG = {"type": "textRange", "story": "main", "blockId": "AAAA0001", "startOffset": 0, "endOffset": 3,
       "selectedTextHash": "habc"}
VALID = {
    "replaceInBlock": {"blockId": "B", "find": "a", "replace": "b"},
    "replaceRange": {"range": RNG, "replace": "x"},
    "commentOnRange": {"range": RNG, "comment": {"text": "c"}},
    "formatRange": {"range": RNG, "formatting": {"bold": True}},
    "insertAfterBlock": {"blockId": "B", "text": "t"},
    "insertBeforeBlock": {"blockId": "B", "text": "t"},
    "replaceBlock": {"blockId": "B", "text": "t"},
    "deleteBlock": {"blockId": "B"},
    "splitBlock": {"blockId": "B", "offset": 2},
    "mergeBlockWithNext": {"blockId": "B"},
    "setBlockParagraphProperties": {"blockId": "B", "properties": {"alignment": "center"}},
    "insertTable": {"blockId": "B", "rows": [["a", "b"]]},
    "deleteTable": {"blockId": "B"},
    "commentOnBlock": {"blockId": "B", "comment": {"text": "c"}},
    "insertSignatureTable": {"blockId": "B", "parties": [{"name": "A"}]},
    "insertTableRow": {"blockId": "B", "cellTexts": ["a"]},
    "deleteTableRow": {"blockId": "B"},
    "insertTableColumn": {"blockId": "B", "position": "before"},
    "deleteTableColumn": {"blockId": "B"},
    "mergeTableCells": {"blockId": "B", "rowCount": 2},
    "splitTableCell": {"blockId": "B"},
}
