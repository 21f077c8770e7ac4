"""The package layer: the zip and its parts, relationships, content types, limits, safe XML, Strict Open XML, atomic saving."""
